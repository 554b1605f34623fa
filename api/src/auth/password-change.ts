/**
 * A signed-in user's own password change. The current password is a secret checked on request, so its checks
 * are limited per user (passwordCheckPerUser), counted before the check like login attempts: a stolen session
 * cannot guess its way to the account's password.
 */
import { type FieldError, PASSWORD_MAX, validatePassword } from "@vidensbank/shared";
import { recordActivity } from "../activity/activity.service";
import { Errors } from "../errors";
import { UserModel } from "../users/user.model";
import { forgetAddresses } from "./known-addresses";
import { newPasswordFields, verifyPassword } from "./passwords";
import type { RateLimits } from "./rate-limits";
import type { RequestMeta } from "./request-meta";

export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword?: string;
}

export interface PasswordChangeDeps {
  limits: RateLimits;
  /** end a user's login sessions except one */
  revokeSessions(userId: string, exceptSid?: string): Promise<void>;
}

function inputProblems(input: PasswordChangeInput): FieldError[] {
  const fields: FieldError[] = [];
  if (input.currentPassword.length < 1) {
    fields.push({ field: "currentPassword", key: "rules.currentPasswordRequired" });
  }
  const pw = validatePassword(input.newPassword);
  if (pw)
    fields.push({
      field: "newPassword",
      key: pw.key === "rules.passwordMin" ? "rules.newPasswordMin" : pw.key,
    });
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.newPassword) {
    fields.push({ field: "confirmPassword", key: "rules.newPasswordsMismatch" });
  }
  return fields;
}

/**
 * Change the password of `userId` (signed in with login session `sid`, from `meta`). Needs the current password.
 * Every other login session ends (a stolen token stops working), every mailed link is voided and the addresses
 * the account signed in from are forgotten but the one the change came from; the session that made the change
 * stays signed in.
 */
export async function changePassword(
  deps: PasswordChangeDeps,
  auth: { userId: string; sid: string; meta: RequestMeta },
  input: PasswordChangeInput,
): Promise<void> {
  // malformed input is refused before it counts against the limit
  const fields = inputProblems(input);
  if (fields.length > 0) throw Errors.invalidFields(fields);
  // counted before the check (see rate-limits.ts); the read goes alongside, not after
  const [, user] = await Promise.all([
    deps.limits.consume("passwordCheckPerUser", auth.userId),
    UserModel.findById(auth.userId),
  ]);
  if (!user) throw Errors.unauthenticated();
  if (
    input.currentPassword.length > PASSWORD_MAX ||
    !(await verifyPassword(user.passwordHash, input.currentPassword))
  ) {
    throw Errors.invalidField("currentPassword", "auth.currentPasswordWrong");
  }
  await deps.limits.reset("passwordCheckPerUser", auth.userId);
  await UserModel.updateOne({ _id: user._id }, { $set: await newPasswordFields(input.newPassword) });
  await deps.revokeSessions(auth.userId, auth.sid);
  await forgetAddresses(user.email, auth.meta);
  await recordActivity({
    action: "password_change",
    message: { key: "log.passwordChange", params: { name: user.name } },
    userEmail: user.email,
    userId: auth.userId,
  });
}
