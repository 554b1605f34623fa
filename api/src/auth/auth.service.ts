/**
 * Accounts and sign-in: registration, e-mail verification, login sessions, password reset and change.
 * The one service behind GraphQL, REST and the CLI; every rule about accounts lives here (or in user.rules).
 */
import mongoose from "mongoose";
import { recordActivity } from "../activity/activity.service";
import type { AppConfig } from "../config";
import { Errors } from "../errors";
import { logger } from "../logger";
import type { Mailer } from "../mail/mailer";
import { type UserDoc, UserModel } from "../users/user.model";
import { type PublicUser, presentUser } from "../users/user.presenter";
import {
  type FieldError,
  messages,
  normalizeEmail,
  PASSWORD_MAX,
  type RegisterFields,
  validateEmail,
  validateLogin,
  validatePassword,
  validateRegistration,
} from "../users/user.rules";
import { authCache, TokenMemo } from "./auth.cache";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords";
import type { RateLimits } from "./rate-limits";
import { type SessionData, SessionModel } from "./session.model";
import { emitSessionsChanged } from "./session-events";
import { type AuthClaims, hashToken, randomToken, signAuthToken, verifyAuthTokenExpiring } from "./tokens";

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;

export const authMessages = {
  registered: "Bruger oprettet. Tjek din email for at bekræfte din konto.",
  emailTaken: "Der findes allerede en bruger med denne email",
  usernameTaken: "Brugernavnet er allerede taget",
  verified: "Din email er bekræftet. Du kan nu logge ind.",
  verificationInvalid: "Bekræftelseslinket er ugyldigt eller udløbet",
  resendSent: "Hvis kontoen findes og ikke er bekræftet, er der sendt en ny bekræftelsesemail.",
  forgotSent: "Hvis der findes en konto med denne email, er der sendt et link til at nulstille adgangskoden.",
  resetInvalid: "Nulstillingslinket er ugyldigt eller udløbet",
  resetDone: "Din adgangskode er nulstillet. Du kan nu logge ind.",
  currentPasswordWrong: "Nuværende adgangskode er forkert",
  welcome: (name: string) => `Velkommen tilbage, ${name}!`,
} as const;

/** Where a request came from; used for rate limits and the session record. */
export interface RequestMeta {
  ip?: string;
  userAgent?: string;
}

export interface LoginResult {
  token: string;
  user: PublicUser;
  message: string;
  sid: string;
  expiresAt: Date;
}

export interface RegisterResult {
  verificationRequired: boolean;
  message: string;
  user?: PublicUser;
  token?: string;
}

export interface Authenticated {
  user: UserDoc;
  sid: string;
}

export interface AuthServiceDeps {
  config: AppConfig;
  mailer: Mailer;
  limits: RateLimits;
  jwtSecret: Uint8Array;
}

function ipKey(meta: RequestMeta): string {
  return meta.ip ?? "unknown";
}

function isDuplicateKey(
  e: unknown,
): e is { code: number; keyPattern?: Record<string, unknown>; message: string } {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === 11000;
}

/**
 * A user document of its own for one request, from a cached lean copy: the copy's Dates are copied too, so no
 * two requests share anything mutable (the user schema is flat; ObjectIds are not mutated).
 */
function hydrateUser(lean: Record<string, unknown>): UserDoc {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(lean)) {
    const value = lean[key];
    copy[key] = value instanceof Date ? new Date(value.getTime()) : value;
  }
  return UserModel.hydrate(copy) as UserDoc;
}

/** The result of authenticate(): the user document is made when first read (many routes only need a yes). */
function authenticated(sid: string, lean: Record<string, unknown>): Authenticated {
  let user: UserDoc | undefined;
  return {
    sid,
    get user() {
      user ??= hydrateUser(lean);
      return user;
    },
  };
}

export class AuthService {
  /** tokens verified by this service's secret */
  private readonly tokens = new TokenMemo();

  constructor(private readonly deps: AuthServiceDeps) {}

  private get config(): AppConfig {
    return this.deps.config;
  }

  /**
   * Create an unverified account and e-mail the verification link. Validation per spec §5; the domain must
   * be in ALLOWED_EMAIL_DOMAINS; e-mail and username must be free (CONFLICT).
   */
  async register(input: RegisterFields, meta: RequestMeta = {}): Promise<RegisterResult> {
    // invalid input is refused before it counts against the limit (and writes nothing)
    const fields = validateRegistration(input, this.config.allowedEmailDomains);
    if (fields.length > 0) throw Errors.invalidFields(fields);
    await this.deps.limits.consume("registerPerIp", ipKey(meta));
    const user = await this.createAccount(input, { role: "user", verified: false });
    const token = await this.issueVerificationToken(user);
    await this.sendMail(
      () => this.deps.mailer.sendVerification(user.email, user.name, token),
      "verification",
    );
    await recordActivity({
      action: "register",
      description: `Ny bruger registreret: ${user.name}`,
      userEmail: user.email,
      userId: String(user._id),
      metadata: { username: user.username },
    });
    return { verificationRequired: true, message: authMessages.registered, user: presentUser(user) };
  }

  /**
   * Validate and insert an account (shared by register, the CLI and the start-up admin).
   * Applies every registration rule; throws BAD_USER_INPUT or CONFLICT.
   */
  async createAccount(
    input: RegisterFields,
    opts: { role: "user" | "admin"; verified: boolean },
  ): Promise<UserDoc> {
    const fields = validateRegistration(input, this.config.allowedEmailDomains);
    if (fields.length > 0) throw Errors.invalidFields(fields);
    const email = normalizeEmail(input.email);
    const username = input.username.trim();
    await this.assertAvailable(email, username);
    const passwordHash = await hashPassword(input.password);
    try {
      return await UserModel.create({
        email,
        username,
        usernameKey: username.toLowerCase(),
        name: input.name.trim(),
        passwordHash,
        role: opts.role,
        verified: opts.verified,
      });
    } catch (e) {
      // two registrations racing past assertAvailable: the unique index decides
      if (isDuplicateKey(e)) {
        const onEmail = e.keyPattern ? "email" in e.keyPattern : e.message.includes("email");
        throw Errors.conflict(onEmail ? authMessages.emailTaken : authMessages.usernameTaken);
      }
      throw e;
    }
  }

  private async assertAvailable(email: string, username: string): Promise<void> {
    if (await UserModel.exists({ email })) throw Errors.conflict(authMessages.emailTaken);
    if (await UserModel.exists({ usernameKey: username.toLowerCase() })) {
      throw Errors.conflict(authMessages.usernameTaken);
    }
  }

  private async issueVerificationToken(user: UserDoc): Promise<string> {
    const token = randomToken();
    await UserModel.updateOne(
      { _id: user._id },
      {
        $set: {
          verificationToken: hashToken(token),
          verificationTokenExpires: new Date(Date.now() + VERIFICATION_TTL_MS),
        },
      },
    );
    return token;
  }

  // A mail failure must not lose the account: it is logged, and the user can ask for the mail again.
  private async sendMail(send: () => Promise<void>, kind: string): Promise<void> {
    try {
      await send();
    } catch (err) {
      logger.error({ err, kind }, "could not send mail");
    }
  }

  /** Mark the account verified. The token is single-use and expires after 24 hours. */
  async verifyEmail(token: string): Promise<{ verified: true; message: string }> {
    if (!token || token.length > 200) throw Errors.invalidToken(authMessages.verificationInvalid);
    const user = await UserModel.findOneAndUpdate(
      { verificationToken: hashToken(token), verificationTokenExpires: { $gt: new Date() } },
      { $set: { verified: true, verificationToken: null, verificationTokenExpires: null } },
      { returnDocument: "after" },
    );
    if (!user) throw Errors.invalidToken(authMessages.verificationInvalid);
    await recordActivity({
      action: "verify_email",
      description: `Email bekræftet: ${user.email}`,
      userEmail: user.email,
      userId: String(user._id),
    });
    return { verified: true, message: authMessages.verified };
  }

  /** Send a new verification link. The same answer whether or not the address has an unverified account. */
  async resendVerification(email: string, meta: RequestMeta = {}): Promise<{ ok: true; message: string }> {
    this.assertEmailFormat(email);
    const normalized = normalizeEmail(email);
    await this.deps.limits.consume("mailPerIp", ipKey(meta));
    await this.deps.limits.consume("mailPerAddress", normalized);
    const user = await UserModel.findOne({ email: normalized });
    if (user && !user.verified) {
      const token = await this.issueVerificationToken(user);
      await this.sendMail(
        () => this.deps.mailer.sendVerification(user.email, user.name, token),
        "verification",
      );
    }
    return { ok: true, message: authMessages.resendSent };
  }

  private assertEmailFormat(email: string): void {
    const problem = validateEmail(email);
    if (problem) throw Errors.invalidFields([{ field: "email", message: problem }]);
  }

  /**
   * Check the password, open a login session and sign a token carrying its sid.
   * Unverified accounts are refused with EMAIL_NOT_VERIFIED ('ikke bekræftet').
   */
  async login(input: { email: string; password: string }, meta: RequestMeta = {}): Promise<LoginResult> {
    const fields = validateLogin(input);
    if (fields.length > 0) throw Errors.invalidFields(fields);
    const email = normalizeEmail(input.email);
    await this.deps.limits.consume("loginPerIp", ipKey(meta));
    await this.deps.limits.check("loginPerAccount", email);

    const user = input.password.length <= PASSWORD_MAX ? await UserModel.findOne({ email }) : null;
    let ok = false;
    if (user) ok = await verifyPassword(user.passwordHash, input.password);
    else await verifyAgainstDummy(input.password.slice(0, PASSWORD_MAX)); // same time for unknown accounts
    if (!user || !ok) {
      await this.deps.limits.consume("loginPerAccount", email).catch(() => undefined);
      throw Errors.invalidCredentials();
    }
    if (!user.verified) throw Errors.emailNotVerified();
    await this.deps.limits.reset("loginPerAccount", email);

    const { sid, expiresAt } = await this.openSession(user, meta);
    const lastLogin = new Date();
    await UserModel.updateOne({ _id: user._id }, { $set: { lastLogin } });
    user.lastLogin = lastLogin;
    const token = await signAuthToken(
      this.deps.jwtSecret,
      { sub: String(user._id), sid },
      this.config.sessionTtlSeconds,
    );
    await recordActivity({
      action: "login",
      description: `${user.name} loggede ind`,
      userEmail: user.email,
      userId: String(user._id),
      metadata: { ip: meta.ip ?? null },
    });
    return { token, user: presentUser(user), message: authMessages.welcome(user.name), sid, expiresAt };
  }

  private async openSession(user: UserDoc, meta: RequestMeta): Promise<{ sid: string; expiresAt: Date }> {
    const sid = randomToken(24);
    const expiresAt = new Date(Date.now() + this.config.sessionTtlSeconds * 1000);
    const sess: SessionData = {
      userId: String(user._id),
      createdAt: new Date().toISOString(),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300),
    };
    await SessionModel.create({ sid, sess, expire: expiresAt });
    return { sid, expiresAt };
  }

  /**
   * The signed-in user for a token, or null. Valid only while its login session exists and the user exists:
   * a logout, password change or deletion stops the token at once. Served from the in-process auth cache when
   * it can be (see auth.cache.ts: changes in this process are seen at once, other processes' within 1 s).
   * Every call returns its own user document.
   */
  async authenticate(token: string | undefined | null): Promise<Authenticated | null> {
    if (!token) return null;
    const claims = await this.verifyToken(token);
    if (!claims) return null;
    const cached = authCache.get(claims.sid, claims.sub);
    if (cached) return authenticated(claims.sid, cached.user);
    if (!mongoose.isValidObjectId(claims.sub)) return null;
    const generation = authCache.begin();
    const readAt = Date.now();
    // both keys come from the verified token: look them up together
    const [session, user] = await Promise.all([
      SessionModel.findOne({ sid: claims.sid, expire: { $gt: new Date(readAt) } }).lean(),
      UserModel.findById(claims.sub).lean(),
    ]);
    if (!session || (session.sess as SessionData).userId !== claims.sub || !user) return null;
    authCache.set(
      claims.sid,
      { userId: claims.sub, user, sessionExpires: new Date(session.expire).getTime() },
      generation,
      readAt,
    );
    return authenticated(claims.sid, user);
  }

  /** The claims of a valid token; a token verified before is not verified again until it expires. */
  private async verifyToken(token: string): Promise<AuthClaims | null> {
    if (token.length > 4096) return null;
    const known = this.tokens.get(token);
    if (known) return known;
    const claims = await verifyAuthTokenExpiring(this.deps.jwtSecret, token);
    if (!claims) return null;
    if (claims.exp !== undefined)
      this.tokens.set(token, { sub: claims.sub, sid: claims.sid, exp: claims.exp });
    return { sub: claims.sub, sid: claims.sid };
  }

  /** End one login session (its token stops working). */
  async logout(auth: Authenticated | null): Promise<void> {
    if (!auth) return;
    await SessionModel.deleteOne({ sid: auth.sid });
    emitSessionsChanged(String(auth.user._id));
    await recordActivity({
      action: "logout",
      description: `${auth.user.name} loggede ud`,
      userEmail: auth.user.email,
      userId: String(auth.user._id),
    });
  }

  /** Remove a user's login sessions (all, or all but one). */
  async revokeSessions(userId: string, exceptSid?: string): Promise<void> {
    const filter: Record<string, unknown> = { "sess.userId": userId };
    if (exceptSid) filter.sid = { $ne: exceptSid };
    await SessionModel.deleteMany(filter);
    emitSessionsChanged(userId);
  }

  /** E-mail a reset link (1 hour, single use). The same answer for known and unknown addresses. */
  async forgotPassword(email: string, meta: RequestMeta = {}): Promise<{ ok: true; message: string }> {
    this.assertEmailFormat(email);
    const normalized = normalizeEmail(email);
    await this.deps.limits.consume("mailPerIp", ipKey(meta));
    await this.deps.limits.consume("mailPerAddress", normalized);
    const user = await UserModel.findOne({ email: normalized });
    if (user) {
      const token = randomToken();
      await UserModel.updateOne(
        { _id: user._id },
        {
          $set: {
            passwordResetToken: hashToken(token),
            passwordResetTokenExpires: new Date(Date.now() + RESET_TTL_MS),
          },
        },
      );
      await this.sendMail(() => this.deps.mailer.sendPasswordReset(user.email, user.name, token), "reset");
    }
    return { ok: true, message: authMessages.forgotSent };
  }

  /** Set a new password from a reset link; the link is used up and every login session of the user ends. */
  async resetPassword(input: { token: string; newPassword: string }): Promise<{ ok: true; message: string }> {
    const pw = validatePassword(input.newPassword);
    if (pw) throw Errors.invalidFields([{ field: "newPassword", message: pw }]);
    if (!input.token || input.token.length > 200) throw Errors.invalidToken(authMessages.resetInvalid);
    const tokenHash = hashToken(input.token);
    const candidate = await UserModel.exists({
      passwordResetToken: tokenHash,
      passwordResetTokenExpires: { $gt: new Date() },
    });
    if (!candidate) throw Errors.invalidToken(authMessages.resetInvalid);
    const passwordHash = await hashPassword(input.newPassword);
    // The token condition is repeated in the update, so of two concurrent uses only one succeeds.
    const user = await UserModel.findOneAndUpdate(
      { passwordResetToken: tokenHash, passwordResetTokenExpires: { $gt: new Date() } },
      // Following the link proves the mailbox, so the address counts as verified.
      { $set: { passwordHash, passwordResetToken: null, passwordResetTokenExpires: null, verified: true } },
      { returnDocument: "after" },
    );
    if (!user) throw Errors.invalidToken(authMessages.resetInvalid);
    await this.revokeSessions(String(user._id));
    await recordActivity({
      action: "password_reset",
      description: `${user.name} nulstillede sin adgangskode`,
      userEmail: user.email,
      userId: String(user._id),
    });
    return { ok: true, message: authMessages.resetDone };
  }

  /**
   * Change the signed-in user's password. Needs the current password. Every other login session ends
   * (a stolen token stops working); the session that made the change stays signed in.
   */
  async changePassword(
    auth: Authenticated,
    input: { currentPassword: string; newPassword: string; confirmPassword?: string },
  ): Promise<void> {
    const fields: FieldError[] = [];
    if (input.currentPassword.length < 1) {
      fields.push({ field: "currentPassword", message: messages.currentPasswordRequired });
    }
    const pw = validatePassword(input.newPassword);
    if (pw)
      fields.push({
        field: "newPassword",
        message: pw === messages.passwordMin ? messages.newPasswordMin : pw,
      });
    if (input.confirmPassword !== undefined && input.confirmPassword !== input.newPassword) {
      fields.push({ field: "confirmPassword", message: messages.newPasswordsMismatch });
    }
    if (fields.length > 0) throw Errors.invalidFields(fields);
    const user = await UserModel.findById(auth.user._id);
    if (!user) throw Errors.unauthenticated();
    if (
      input.currentPassword.length > PASSWORD_MAX ||
      !(await verifyPassword(user.passwordHash, input.currentPassword))
    ) {
      throw Errors.invalidFields([{ field: "currentPassword", message: authMessages.currentPasswordWrong }]);
    }
    await UserModel.updateOne(
      { _id: user._id },
      { $set: { passwordHash: await hashPassword(input.newPassword) } },
    );
    await this.revokeSessions(String(user._id), auth.sid);
    await recordActivity({
      action: "password_change",
      description: `${user.name} ændrede sin adgangskode`,
      userEmail: user.email,
      userId: String(user._id),
    });
  }
}
