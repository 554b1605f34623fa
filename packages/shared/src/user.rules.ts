/**
 * Account validation rules (spec §5). The API services enforce these rules and the web client runs the same ones
 * to show the same messages before submitting. One place for each rule; the texts are in the catalogue
 * (messages.ts, keys `rules.*`), so a rule answers with a message key, never with text.
 */
import type { FieldError, Message } from "./messages";

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const NAME_MIN = 2;
export const NAME_MAX = 100;
export const PASSWORD_MIN = 6;
/** an upper bound so hashing cannot be abused with megabyte passwords */
export const PASSWORD_MAX = 256;
export const EMAIL_MAX = 254;

// Deliberately strict: one @, a dot-separated domain of letters/digits/hyphens, no trailing dot, no spaces.
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Trimmed, lower-cased e-mail: the one form stored and compared. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  const e = email.trim();
  return e.length <= EMAIL_MAX && EMAIL_RE.test(e) && !e.split("@")[0].startsWith(".") && !e.includes("..");
}

/** The domain part must equal one of the allowed domains exactly (no subdomains). */
export function hasAllowedDomain(email: string, allowedDomains: readonly string[]): boolean {
  const domain = normalizeEmail(email).split("@")[1] ?? "";
  return allowedDomains.some((d) => d.toLowerCase() === domain);
}

export function validateEmail(email: string, allowedDomains?: readonly string[]): Message | null {
  if (!isValidEmail(email)) return { key: "rules.emailInvalid" };
  if (allowedDomains && allowedDomains.length > 0 && !hasAllowedDomain(email, allowedDomains)) {
    return { key: "rules.emailDomain", params: { domain: allowedDomains[0] } };
  }
  return null;
}

/**
 * Characters a name or username may not hold: control characters (line breaks, tabs, NUL…), the line and
 * paragraph separators, and the bidirectional overrides and isolates that make text display in another order
 * than it is stored. A name is shown to others (shares, the admin's lists, the activity log) and greets its
 * owner in mails: one line of visible text.
 */
const INVISIBLE_CONTROLS = /[\p{Cc}\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export function validateUsername(username: string): Message | null {
  const u = username.trim();
  if (u.length < USERNAME_MIN) return { key: "rules.usernameMin" };
  if (u.length > USERNAME_MAX) return { key: "rules.usernameMax" };
  if (INVISIBLE_CONTROLS.test(u)) return { key: "rules.usernameChars" };
  return null;
}

export function validateName(name: string): Message | null {
  const n = name.trim();
  if (n.length < NAME_MIN) return { key: "rules.nameMin" };
  if (n.length > NAME_MAX) return { key: "rules.nameMax" };
  if (INVISIBLE_CONTROLS.test(n)) return { key: "rules.nameChars" };
  return null;
}

export function validatePassword(password: string): Message | null {
  if (password.length < PASSWORD_MIN) return { key: "rules.passwordMin" };
  if (password.length > PASSWORD_MAX) return { key: "rules.passwordMax" };
  return null;
}

export interface RegisterFields {
  name: string;
  email: string;
  username: string;
  password: string;
}

/** All field errors of a registration, in form order; empty when valid. */
export function validateRegistration(input: RegisterFields, allowedDomains: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const push = (field: string, problem: Message | null) => problem && errors.push({ field, ...problem });
  push("name", validateName(input.name));
  push("email", validateEmail(input.email, allowedDomains));
  push("username", validateUsername(input.username));
  push("password", validatePassword(input.password));
  return errors;
}

export function validateLogin(input: { email: string; password: string }): FieldError[] {
  const errors: FieldError[] = [];
  if (!isValidEmail(input.email)) errors.push({ field: "email", key: "rules.emailInvalid" });
  if (input.password.length === 0) errors.push({ field: "password", key: "rules.passwordRequired" });
  return errors;
}

/** Reset-password form (new + confirmation). */
export function validatePasswordReset(input: { newPassword: string; confirmPassword: string }): FieldError[] {
  const errors: FieldError[] = [];
  const pw = validatePassword(input.newPassword);
  if (pw) errors.push({ field: "newPassword", ...pw });
  if (input.confirmPassword.length < PASSWORD_MIN) {
    errors.push({ field: "confirmPassword", key: "rules.passwordMin" });
  } else if (input.confirmPassword !== input.newPassword) {
    errors.push({ field: "confirmPassword", key: "rules.passwordsMismatch" });
  }
  return errors;
}

/** Profile password change (current + new + confirmation). */
export function validatePasswordChange(input: {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}): FieldError[] {
  const errors: FieldError[] = [];
  if (input.currentPassword.length < 1) {
    errors.push({ field: "currentPassword", key: "rules.currentPasswordRequired" });
  }
  if (input.newPassword.length < PASSWORD_MIN) {
    errors.push({ field: "newPassword", key: "rules.newPasswordMin" });
  } else if (input.newPassword.length > PASSWORD_MAX) {
    errors.push({ field: "newPassword", key: "rules.passwordMax" });
  }
  if (input.confirmPassword.length < 1) {
    errors.push({ field: "confirmPassword", key: "rules.confirmNewPasswordRequired" });
  } else if (input.confirmPassword !== input.newPassword) {
    errors.push({ field: "confirmPassword", key: "rules.newPasswordsMismatch" });
  }
  return errors;
}
