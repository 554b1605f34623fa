/**
 * Account validation rules and their Danish messages (spec §5). Dependency-free on purpose: the API services
 * enforce these rules and the web client imports this same file to show the same messages before submitting.
 * One place for each rule.
 */

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const NAME_MIN = 2;
export const NAME_MAX = 100;
export const PASSWORD_MIN = 6;
/** an upper bound so hashing cannot be abused with megabyte passwords */
export const PASSWORD_MAX = 256;
export const EMAIL_MAX = 254;

export const messages = {
  emailInvalid: "Ugyldig email format",
  emailDomain: (firstDomain: string) => `Kun @${firstDomain} email adresser er tilladt`,
  usernameMin: "Brugernavn skal være mindst 3 tegn",
  usernameMax: "Brugernavn må højst være 50 tegn",
  passwordMin: "Password skal være mindst 6 tegn",
  passwordMax: "Password må højst være 256 tegn",
  passwordRequired: "Password er påkrævet",
  nameMin: "Navn skal være mindst 2 tegn",
  nameMax: "Navn må højst være 100 tegn",
  passwordsMismatch: "Passwords matcher ikke",
  currentPasswordRequired: "Nuværende adgangskode er påkrævet",
  newPasswordMin: "Ny adgangskode skal være mindst 6 tegn",
  confirmNewPasswordRequired: "Bekræft ny adgangskode",
  newPasswordsMismatch: "Adgangskoderne matcher ikke",
} as const;

/** A field error: which field, and the Danish text to show beside it. */
export interface FieldError {
  field: string;
  message: string;
}

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

export function validateEmail(email: string, allowedDomains?: readonly string[]): string | null {
  if (!isValidEmail(email)) return messages.emailInvalid;
  if (allowedDomains && allowedDomains.length > 0 && !hasAllowedDomain(email, allowedDomains)) {
    return messages.emailDomain(allowedDomains[0]);
  }
  return null;
}

export function validateUsername(username: string): string | null {
  const u = username.trim();
  if (u.length < USERNAME_MIN) return messages.usernameMin;
  if (u.length > USERNAME_MAX) return messages.usernameMax;
  return null;
}

export function validateName(name: string): string | null {
  const n = name.trim();
  if (n.length < NAME_MIN) return messages.nameMin;
  if (n.length > NAME_MAX) return messages.nameMax;
  return null;
}

export function validatePassword(password: string): string | null {
  if (password.length < PASSWORD_MIN) return messages.passwordMin;
  if (password.length > PASSWORD_MAX) return messages.passwordMax;
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
  const push = (field: string, message: string | null) => message && errors.push({ field, message });
  push("name", validateName(input.name));
  push("email", validateEmail(input.email, allowedDomains));
  push("username", validateUsername(input.username));
  push("password", validatePassword(input.password));
  return errors;
}

export function validateLogin(input: { email: string; password: string }): FieldError[] {
  const errors: FieldError[] = [];
  if (!isValidEmail(input.email)) errors.push({ field: "email", message: messages.emailInvalid });
  if (input.password.length === 0) errors.push({ field: "password", message: messages.passwordRequired });
  return errors;
}

/** Reset-password form (new + confirmation). */
export function validatePasswordReset(input: { newPassword: string; confirmPassword: string }): FieldError[] {
  const errors: FieldError[] = [];
  const pw = validatePassword(input.newPassword);
  if (pw) errors.push({ field: "newPassword", message: pw });
  if (input.confirmPassword.length < PASSWORD_MIN) {
    errors.push({ field: "confirmPassword", message: messages.passwordMin });
  } else if (input.confirmPassword !== input.newPassword) {
    errors.push({ field: "confirmPassword", message: messages.passwordsMismatch });
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
    errors.push({ field: "currentPassword", message: messages.currentPasswordRequired });
  }
  if (input.newPassword.length < PASSWORD_MIN) {
    errors.push({ field: "newPassword", message: messages.newPasswordMin });
  } else if (input.newPassword.length > PASSWORD_MAX) {
    errors.push({ field: "newPassword", message: messages.passwordMax });
  }
  if (input.confirmPassword.length < 1) {
    errors.push({ field: "confirmPassword", message: messages.confirmNewPasswordRequired });
  } else if (input.confirmPassword !== input.newPassword) {
    errors.push({ field: "confirmPassword", message: messages.newPasswordsMismatch });
  }
  return errors;
}
