/**
 * Accounts and sign-in: registration, login sessions and their tokens, and the doors to the e-mailed links
 * (account-links.ts) and the password change (password-change.ts). The one service behind GraphQL, REST and
 * the CLI; every rule about accounts lives here, in those modules, or in @vidensbank/shared (user.rules).
 */
import {
  formatMessage,
  normalizeEmail,
  PASSWORD_MAX,
  type RegisterFields,
  validateLogin,
  validateRegistration,
} from "@vidensbank/shared";
import { recordActivity } from "../activity/activity.service";
import type { AppConfig } from "../config";
import { isObjectIdString } from "../db/ids";
import { Errors } from "../errors";
import type { EventBus } from "../events/bus";
import { PROCESS_ID } from "../events/origin";
import type { Mailer } from "../mail/mailer";
import { type UserDoc, type UserIdentity, UserModel } from "../users/user.model";
import { type PublicUser, presentUser } from "../users/user.presenter";
import { AccountLinks } from "./account-links";
import { AttemptLimits } from "./attempt-limits";
import { authCache, TokenMemo } from "./auth.cache";
import "./auth.events";
import { canSeeEnvironment } from "../system/environment.service";
import { forgetAddresses } from "./known-addresses";
import { changePassword, type PasswordChangeInput } from "./password-change";
import { hashPassword, newPasswordFields, verifyAgainstDummy, verifyPassword } from "./passwords";
import type { RateLimits } from "./rate-limits";
import { ipKey, type RequestMeta } from "./request-meta";
import { type SessionData, SessionModel } from "./session.model";
import { emitSessionsChanged } from "./session-events";
import { type AuthClaims, randomToken, signAuthToken, verifyAuthTokenExpiring } from "./tokens";

export { RESET_TTL_MS, VERIFICATION_TTL_MS } from "./account-links";
export type { RequestMeta } from "./request-meta";

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
  /** the user document, made on first read (most requests need no more than `identity`) */
  user: UserDoc;
  /** who is signed in, from the cached account without making a document (checking a role, recording a search) */
  identity: UserIdentity;
  sid: string;
}

export interface AuthServiceDeps {
  config: AppConfig;
  mailer: Mailer;
  limits: RateLimits;
  jwtSecret: Uint8Array;
  /** where SESSIONS_CHANGED goes (other processes follow a logout or revocation made here) */
  events?: EventBus;
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
    // its own small object: nothing of the cached copy is handed out
    identity: { _id: lean._id, name: lean.name, email: lean.email, role: lean.role } as UserIdentity,
    get user() {
      user ??= hydrateUser(lean);
      return user;
    },
  };
}

export class AuthService {
  /** tokens verified by this service's secret */
  private readonly tokens = new TokenMemo();
  private readonly links: AccountLinks;
  private readonly attempts: AttemptLimits;

  constructor(private readonly deps: AuthServiceDeps) {
    this.attempts = new AttemptLimits(deps.limits);
    this.links = new AccountLinks({
      mailer: deps.mailer,
      limits: deps.limits,
      attempts: this.attempts,
      revokeSessions: (userId) => this.revokeSessions(userId),
    });
  }

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
    const user = await this.createAccount(input, { role: "user", verified: false, signUp: true });
    await this.links.sendVerification(user); // the mail goes after the answer
    await recordActivity({
      action: "register",
      message: { key: "log.register", params: { name: user.name } },
      userEmail: user.email,
      userId: String(user._id),
      metadata: { username: user.username },
    });
    return { verificationRequired: true, message: formatMessage("auth.registered"), user: presentUser(user) };
  }

  /**
   * Validate and insert an account (shared by register, the CLI and the start-up admin).
   * Applies every registration rule; throws BAD_USER_INPUT or CONFLICT. `signUp` (register): a username kept
   * for the CLI (ENV_BADGE_USERNAME) is refused as taken.
   */
  async createAccount(
    input: RegisterFields,
    opts: { role: "user" | "admin"; verified: boolean; signUp?: boolean },
  ): Promise<UserDoc> {
    const fields = validateRegistration(input, this.config.allowedEmailDomains);
    if (fields.length > 0) throw Errors.invalidFields(fields);
    const email = normalizeEmail(input.email);
    const username = input.username.trim();
    await this.assertAvailable(email, username, opts.signUp === true);
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
        throw Errors.conflict(onEmail ? "auth.emailTaken" : "auth.usernameTaken");
      }
      throw e;
    }
  }

  private async assertAvailable(email: string, username: string, signUp: boolean): Promise<void> {
    if (await UserModel.exists({ email })) throw Errors.conflict("auth.emailTaken");
    // the badge user sees the host's details: nobody may sign up as it, and the refusal does not say why
    const kept = signUp && canSeeEnvironment(this.config, username);
    if (kept || (await UserModel.exists({ usernameKey: username.toLowerCase() }))) {
      throw Errors.conflict("auth.usernameTaken");
    }
  }

  /** Mark the account verified (the e-mailed link; single use, 24 hours). */
  verifyEmail(token: string, meta: RequestMeta = {}): Promise<{ verified: true; message: string }> {
    return this.links.verifyEmail(token, meta);
  }

  /** Send a new verification link; the same answer, in the same time, for every address. */
  resendVerification(email: string, meta: RequestMeta = {}): Promise<{ ok: true; message: string }> {
    return this.links.resendVerification(email, meta);
  }

  /** E-mail a reset link (1 hour, single use); the same answer, in the same time, for every address. */
  forgotPassword(email: string, meta: RequestMeta = {}): Promise<{ ok: true; message: string }> {
    return this.links.forgotPassword(email, meta);
  }

  /** Set a new password from a reset link; every login session of the user ends. */
  resetPassword(
    input: { token: string; newPassword: string },
    meta: RequestMeta = {},
  ): Promise<{ ok: true; message: string }> {
    return this.links.resetPassword(input, meta);
  }

  /**
   * Change the signed-in user's own password (needs the current one; its checks are limited). The addresses the
   * account signed in from are forgotten, all but `meta`'s (known-addresses.ts).
   */
  changePassword(auth: Authenticated, input: PasswordChangeInput, meta: RequestMeta = {}): Promise<void> {
    return changePassword(
      {
        limits: this.deps.limits,
        revokeSessions: (userId, exceptSid) => this.revokeSessions(userId, exceptSid),
      },
      { userId: String(auth.user._id), sid: auth.sid, meta },
      input,
    );
  }

  /**
   * Check the password, open a login session and sign a token carrying its sid.
   * Unverified accounts are refused with EMAIL_NOT_VERIFIED ('ikke bekræftet').
   */
  async login(input: { email: string; password: string }, meta: RequestMeta = {}): Promise<LoginResult> {
    const fields = validateLogin(input);
    if (fields.length > 0) throw Errors.invalidFields(fields);
    const email = normalizeEmail(input.email);
    // Counted before the password is checked (see rate-limits.ts): of a burst of simultaneous guesses only
    // as many as the limit get a check; the rest, and then even the right password from that address, wait for
    // the window. Keyed so that a stranger's guesses do not lock the owner out (attempt-limits.ts).
    await this.attempts.countLogin(email, meta);

    const user = input.password.length <= PASSWORD_MAX ? await UserModel.findOne({ email }) : null;
    let ok = false;
    if (user) ok = await verifyPassword(user.passwordHash, input.password);
    else await verifyAgainstDummy(input.password.slice(0, PASSWORD_MAX)); // same time for unknown accounts
    if (!user || !ok) throw Errors.invalidCredentials();
    if (!user.verified) {
      // the right password is no guess: an owner waiting for the verification mail is not locked out
      await this.attempts.loginNotAGuess(email, meta);
      throw Errors.emailNotVerified();
    }
    await this.attempts.loginSucceeded(email, meta);

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
      message: { key: "log.login", params: { name: user.name } },
      userEmail: user.email,
      userId: String(user._id),
      metadata: { ip: meta.ip ?? null },
    });
    return {
      token,
      user: presentUser(user),
      message: formatMessage("auth.welcome", { name: user.name }),
      sid,
      expiresAt,
    };
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
    if (!isObjectIdString(claims.sub)) return null;
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
    this.sessionsChanged(String(auth.user._id));
    await recordActivity({
      action: "logout",
      message: { key: "log.logout", params: { name: auth.user.name } },
      userEmail: auth.user.email,
      userId: String(auth.user._id),
    });
  }

  /** Remove a user's login sessions (all, or all but one). */
  /**
   * Set a user's password (the admin's or the CLI's reset): the reset and verification links mailed before it
   * stop working, the user's login sessions end and the addresses the account signed in from are forgotten.
   */
  async setPassword(userId: string, password: string): Promise<void> {
    const user = await UserModel.findOneAndUpdate(
      { _id: userId },
      { $set: await newPasswordFields(password) },
      { projection: { email: 1 } },
    ).lean();
    await this.revokeSessions(userId);
    if (user) await forgetAddresses(user.email);
  }

  /** A password's stored hash (an account created without signing up: the built-in admin). */
  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  async revokeSessions(userId: string, exceptSid?: string): Promise<void> {
    const filter: Record<string, unknown> = { "sess.userId": userId };
    if (exceptSid) filter.sid = { $ne: exceptSid };
    await SessionModel.deleteMany(filter);
    this.sessionsChanged(userId);
  }

  /** Here at once (cache, websockets); in other processes through the bus. */
  private sessionsChanged(userId: string): void {
    emitSessionsChanged(userId);
    this.deps.events?.publish("SESSIONS_CHANGED", { userId, origin: PROCESS_ID });
  }
}
