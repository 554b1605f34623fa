/**
 * The e-mailed links: e-mail verification and password reset.
 *
 * Asking for a link (forgot password, resend verification) answers the same, in the same time, for every
 * address: the request only counts against the mail limits and queues the work; the look-up, the token and
 * the mail happen after the answer (mail-queue.ts). Following a link is limited per IP address (tokenPerIp),
 * counted before the token is looked up.
 */
import { formatMessage, normalizeEmail, validateEmail, validatePassword } from "@vidensbank/shared";
import { recordActivity } from "../activity/activity.service";
import { Errors } from "../errors";
import type { Mailer } from "../mail/mailer";
import { type UserDoc, UserModel } from "../users/user.model";
import type { AttemptLimits, MailKind } from "./attempt-limits";
import { forgetAddresses } from "./known-addresses";
import { newPasswordFields } from "./passwords";
import type { RateLimits } from "./rate-limits";
import { ipKey, type RequestMeta } from "./request-meta";
import { hashToken, randomToken } from "./tokens";

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;
/** longer "tokens" are refused without a look-up */
const TOKEN_MAX = 200;

export interface AccountLinksDeps {
  mailer: Mailer;
  limits: RateLimits;
  /** the mail limits (attempt-limits.ts) */
  attempts: AttemptLimits;
  /** end every login session of a user (after a reset) */
  revokeSessions(userId: string): Promise<void>;
}

function verificationFields(token: string) {
  return {
    verificationToken: hashToken(token),
    verificationTokenExpires: new Date(Date.now() + VERIFICATION_TTL_MS),
  };
}

function assertEmailFormat(email: string): void {
  const problem = validateEmail(email);
  if (problem) throw Errors.invalidFields([{ field: "email", ...problem }]);
}

export class AccountLinks {
  constructor(private readonly deps: AccountLinksDeps) {}

  /** Give a new account its verification token now and mail the link after the answer. */
  async sendVerification(user: UserDoc): Promise<void> {
    const token = randomToken();
    await UserModel.updateOne({ _id: user._id }, { $set: verificationFields(token) });
    this.deps.mailer.enqueue("verification", () => this.deps.mailer.sendVerification(user.email, token));
  }

  /** Mark the account verified. The token is single-use and expires after 24 hours. */
  async verifyEmail(token: string, meta: RequestMeta = {}): Promise<{ verified: true; message: string }> {
    if (!token || token.length > TOKEN_MAX) throw Errors.invalidToken("auth.verificationInvalid");
    await this.deps.limits.consume("tokenPerIp", ipKey(meta));
    const user = await UserModel.findOneAndUpdate(
      { verificationToken: hashToken(token), verificationTokenExpires: { $gt: new Date() } },
      { $set: { verified: true, verificationToken: null, verificationTokenExpires: null } },
      { returnDocument: "after" },
    );
    if (!user) throw Errors.invalidToken("auth.verificationInvalid");
    await recordActivity({
      action: "verify_email",
      message: { key: "log.verifyEmail", params: { email: user.email } },
      userEmail: user.email,
      userId: String(user._id),
    });
    return { verified: true, message: formatMessage("auth.verified") };
  }

  /** Send a new verification link. The same answer, in the same time, whether or not the account exists. */
  async resendVerification(email: string, meta: RequestMeta = {}): Promise<{ ok: true; message: string }> {
    const normalized = await this.countMail("verification", email, meta);
    this.deps.mailer.enqueue("verification", async () => {
      const token = randomToken();
      // one atomic step: only an unverified account gets a token (and a mail)
      const user = await UserModel.findOneAndUpdate(
        { email: normalized, verified: false },
        { $set: verificationFields(token) },
        { returnDocument: "after" },
      );
      if (user) await this.deps.mailer.sendVerification(user.email, token);
    });
    return { ok: true, message: formatMessage("auth.resendSent") };
  }

  /** E-mail a reset link (1 hour, single use). The same answer, in the same time, for every address. */
  async forgotPassword(email: string, meta: RequestMeta = {}): Promise<{ ok: true; message: string }> {
    const normalized = await this.countMail("reset", email, meta);
    this.deps.mailer.enqueue("reset", async () => {
      const token = randomToken();
      const user = await UserModel.findOneAndUpdate(
        { email: normalized },
        {
          $set: {
            passwordResetToken: hashToken(token),
            passwordResetTokenExpires: new Date(Date.now() + RESET_TTL_MS),
          },
        },
        { returnDocument: "after" },
      );
      // a mail names its reader only once the address is verified (an unverified name is a registrant's text)
      if (user) await this.deps.mailer.sendPasswordReset(user.email, user.verified ? user.name : null, token);
    });
    return { ok: true, message: formatMessage("auth.forgotSent") };
  }

  /** The mail limits, counted alike for every address; returns the normalized address. */
  private async countMail(kind: MailKind, email: string, meta: RequestMeta): Promise<string> {
    assertEmailFormat(email);
    const normalized = normalizeEmail(email);
    await this.deps.attempts.countMail(kind, normalized, meta);
    return normalized;
  }

  /**
   * Set a new password from a reset link; the link and every other mailed link are used up and every login
   * session of the user ends.
   */
  async resetPassword(
    input: { token: string; newPassword: string },
    meta: RequestMeta = {},
  ): Promise<{ ok: true; message: string }> {
    const pw = validatePassword(input.newPassword);
    if (pw) throw Errors.invalidFields([{ field: "newPassword", ...pw }]);
    if (!input.token || input.token.length > TOKEN_MAX) throw Errors.invalidToken("auth.resetInvalid");
    await this.deps.limits.consume("tokenPerIp", ipKey(meta));
    const tokenHash = hashToken(input.token);
    const live = () => ({ passwordResetToken: tokenHash, passwordResetTokenExpires: { $gt: new Date() } });
    // no hashing work for a dead link
    if (!(await UserModel.exists(live()))) throw Errors.invalidToken("auth.resetInvalid");
    const fields = await newPasswordFields(input.newPassword);
    // The token condition is repeated in the update, so of two concurrent uses only one succeeds.
    const user = await UserModel.findOneAndUpdate(
      live(),
      // Following the link proves the mailbox, so the address counts as verified.
      { $set: { ...fields, verified: true } },
      { returnDocument: "after" },
    );
    if (!user) throw Errors.invalidToken("auth.resetInvalid");
    await this.deps.revokeSessions(String(user._id));
    // whoever signed in before may have taken the account over: none of its addresses stays exempt
    await forgetAddresses(user.email);
    await recordActivity({
      action: "password_reset",
      message: { key: "log.passwordReset", params: { name: user.name } },
      userEmail: user.email,
      userId: String(user._id),
    });
    return { ok: true, message: formatMessage("auth.resetDone") };
  }
}
