/**
 * User administration: the admin list (with counts), search, delete with cascade, admin password reset,
 * and the built-in admin created at start-up. Every operation checks the actor's rights (an Actor: id, e-mail,
 * role; a signed-in user's document is one) here, not only in the transport.
 */
import { randomBytes } from "node:crypto";
import { type RegisterFields, validatePassword } from "@vidensbank/shared";
import { recordActivity } from "../activity/activity.service";
import { type Actor, isAdmin } from "../actor";
import type { AppConfig } from "../config";
import { isObjectIdString } from "../db/ids";
import { Errors } from "../errors";
import type { EventBus } from "../events/bus";
import { escapeRegExp } from "../util";
import { type RoleName, type UserDoc, UserModel } from "./user.model";
import { type PublicUser, presentUser } from "./user.presenter";

export const BUILTIN_ADMIN_USERNAME = "admin";
/** The longest admin user search (after trimming): a name or an e-mail address is far shorter. */
export const USER_SEARCH_MAX_LENGTH = 200;

/** An account an administrator creates (admin panel or CLI): the registration fields plus role and state. */
export interface CreateUserInput extends RegisterFields {
  role?: RoleName;
  /** default true: the administrator vouches for the address */
  verified?: boolean;
}

/** Which door the administrator used; the CLI's entries say so in the activity log. */
export interface AdminActionMeta {
  via?: "cli" | "web";
}

/** spec §3 'User as read in admin list' */
export interface AdminUserView extends PublicUser {
  isActive: boolean;
  chatSessionsCount: number;
  bookmarksCount: number;
  /** the built-in admin: cannot be deleted */
  isProtected: boolean;
}

/**
 * What the users module needs from the other features, wired in one place (services.ts): each feature removes
 * its own data of a deleted user and counts its own documents per user. The users module never touches another
 * feature's collections.
 */
export interface UserDataHooks {
  /** run (all at once) before the user document is removed; the user's data is gone when they resolve */
  userDeleted: Array<(userId: string) => Promise<unknown>>;
  /** chat sessions per user id (admin list) */
  chatSessionCounts: () => Promise<Map<string, number>>;
  /** bookmarks per user id (admin list) */
  bookmarkCounts: () => Promise<Map<string, number>>;
}

/** What the users module needs from the auth module (the AuthService; wired in services.ts). */
export interface UsersAuth {
  /** set a password: earlier mailed links stop working, the user's sessions end */
  setPassword(userId: string, password: string): Promise<void>;
  hashPassword(password: string): Promise<string>;
  /** validate and insert an account with the registration rules (BAD_USER_INPUT, CONFLICT) */
  createAccount(input: RegisterFields, opts: { role: RoleName; verified: boolean }): Promise<UserDoc>;
  /** end every login session of the user */
  revokeSessions(userId: string): Promise<void>;
}

export interface UsersServiceDeps {
  config: AppConfig;
  auth: UsersAuth;
  /** writes of other modules still queued (searches being recorded): done before a user's data is deleted */
  pendingWrites?: () => Promise<void>;
  hooks?: Partial<UserDataHooks>;
  /** USER_DELETED is announced here once a user and their data are gone */
  events?: EventBus;
}

const noCounts = async () => new Map<string, number>();

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  /** The built-in admin (ADMIN_EMAIL or the admin username) can never be deleted. */
  isProtected(user: Pick<UserDoc, "email" | "usernameKey">): boolean {
    return user.email === this.deps.config.adminEmail || user.usernameKey === BUILTIN_ADMIN_USERNAME;
  }

  private assertAdmin(actor: Actor): void {
    if (!isAdmin(actor)) throw Errors.forbidden("errors.adminOnly");
  }

  /** All users, newest first, optionally filtered (case-insensitive over e-mail, name and username). */
  async listUsers(actor: Actor, search?: string | null): Promise<AdminUserView[]> {
    this.assertAdmin(actor);
    const q = search?.trim();
    if (q && q.length > USER_SEARCH_MAX_LENGTH) {
      throw Errors.invalidField("search", "users.searchTooLong", { max: USER_SEARCH_MAX_LENGTH });
    }
    const filter: Record<string, unknown> = {};
    if (q) {
      const re = { $regex: escapeRegExp(q), $options: "i" };
      filter.$or = [{ email: re }, { name: re }, { username: re }];
    }
    const [users, sessionCounts, bookmarkCounts] = await Promise.all([
      UserModel.find(filter).sort({ createdAt: -1 }),
      (this.deps.hooks?.chatSessionCounts ?? noCounts)(),
      (this.deps.hooks?.bookmarkCounts ?? noCounts)(),
    ]);
    return users.map((u) => {
      const id = String(u._id);
      return {
        ...presentUser(u),
        isActive: u.verified,
        chatSessionsCount: sessionCounts.get(id) ?? 0,
        bookmarksCount: bookmarkCounts.get(id) ?? 0,
        isProtected: this.isProtected(u),
      };
    });
  }

  /** Find a user by id; NOT_FOUND for unknown or malformed ids. */
  async getUser(id: string): Promise<UserDoc> {
    if (!isObjectIdString(id)) throw Errors.notFound("users.notFound");
    const user = await UserModel.findById(id);
    if (!user) throw Errors.notFound("users.notFound");
    return user;
  }

  /** A user's e-mail (other modules' activity entries); null for an unknown or malformed id. */
  async emailOf(id: string): Promise<string | null> {
    if (!isObjectIdString(id)) return null;
    return (await UserModel.findById(id, { email: 1 }).lean())?.email ?? null;
  }

  /** A user's name (the owner shown on a shared conversation); null for an unknown or malformed id. */
  async nameOf(id: string): Promise<string | null> {
    if (!isObjectIdString(id)) return null;
    return (await UserModel.findById(id, { name: 1 }).lean())?.name ?? null;
  }

  /** The e-mails of these users by id (unknown ids are left out). */
  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    const valid = ids.filter(isObjectIdString);
    const rows = valid.length ? await UserModel.find({ _id: { $in: valid } }, { email: 1 }).lean() : [];
    return new Map(rows.map((u) => [String(u._id), u.email]));
  }

  /** Find a user by e-mail or username (CLI). */
  async findByLogin(emailOrUsername: string): Promise<UserDoc> {
    const key = emailOrUsername.trim().toLowerCase();
    const user = await UserModel.findOne({ $or: [{ email: key }, { usernameKey: key }] });
    if (!user) throw Errors.notFound("users.notFound");
    return user;
  }

  /**
   * Create an account as an administrator (the admin panel and `vidensbank users create` / `admin create`):
   * the registration rules (e-mail domain, lengths, unique e-mail and username), the password hashed, and an
   * `admin_create_user` activity entry. Throws BAD_USER_INPUT, CONFLICT or FORBIDDEN.
   */
  async createUser(actor: Actor, input: CreateUserInput, meta: AdminActionMeta = {}): Promise<PublicUser> {
    this.assertAdmin(actor);
    const user = await this.deps.auth.createAccount(
      { email: input.email, name: input.name, username: input.username, password: input.password },
      { role: input.role ?? "user", verified: input.verified ?? true },
    );
    await recordActivity({
      action: "admin_create_user",
      message: {
        key: meta.via === "cli" ? "log.adminCreateUserCli" : "log.adminCreateUser",
        params: { email: user.email },
      },
      userEmail: actor.email,
      userId: actor.id,
      metadata: { createdUserId: String(user._id), role: user.role, via: meta.via ?? "web" },
    });
    return presentUser(user);
  }

  /**
   * The built-in admin (ADMIN_EMAIL), created like at server start when missing: the CLI acts as this user.
   * `generatedPassword` is set only when it was just created with a generated password (print it once).
   */
  async builtinAdmin(): Promise<{ user: UserDoc; generatedPassword?: string }> {
    const email = this.deps.config.adminEmail;
    const found = await UserModel.findOne({ email });
    if (found) return { user: found };
    const created = await this.ensureBuiltinAdmin();
    const user = await UserModel.findOne({ email });
    if (!user) throw Errors.notFound("users.notFound");
    return { user, generatedPassword: created.generatedPassword };
  }

  /**
   * Delete a user and everything that is theirs: chat sessions and messages, bookmarks, preferences, recent
   * searches and login sessions (their tokens stop working at once). The built-in admin is refused.
   */
  async deleteUser(actor: Actor, id: string): Promise<void> {
    this.assertAdmin(actor);
    const user = await this.getUser(id);
    if (this.isProtected(user)) throw Errors.forbidden("users.adminProtected");
    if (String(user._id) === actor.id) throw Errors.forbidden("users.notSelf");
    await this.deps.pendingWrites?.();
    await Promise.all((this.deps.hooks?.userDeleted ?? []).map((removeData) => removeData(String(user._id))));
    await UserModel.deleteOne({ _id: user._id });
    await this.deps.auth.revokeSessions(String(user._id));
    this.deps.events?.publish("USER_DELETED", { userId: String(user._id) });
    await recordActivity({
      action: "admin_delete_user",
      message: { key: "log.adminDeleteUser", params: { email: user.email } },
      userEmail: actor.email,
      userId: actor.id,
      metadata: { deletedUserId: String(user._id), deletedEmail: user.email },
    });
  }

  /**
   * Set a user's password as admin (≥ 6 characters; also the CLI's reset): the user's login sessions end and
   * the reset and verification links mailed before it stop working.
   */
  async adminResetPassword(actor: Actor, userId: string, newPassword: string): Promise<void> {
    this.assertAdmin(actor);
    const problem = validatePassword(newPassword);
    if (problem) throw Errors.invalidFields([{ field: "newPassword", ...problem }]);
    const user = await this.getUser(userId);
    await this.deps.auth.setPassword(String(user._id), newPassword);
    await recordActivity({
      action: "admin_reset_password",
      message: { key: "log.adminResetPassword", params: { email: user.email } },
      userEmail: actor.email,
      userId: actor.id,
      metadata: { targetUserId: String(user._id), targetEmail: user.email },
    });
  }

  /**
   * Create the built-in admin (ADMIN_EMAIL, verified, role admin) when missing. Returns the generated
   * password when one was made, so the caller can print it once.
   */
  async ensureBuiltinAdmin(): Promise<{ created: boolean; email: string; generatedPassword?: string }> {
    const { adminEmail, adminPassword } = this.deps.config;
    const existing = await UserModel.findOne({ email: adminEmail });
    if (existing) {
      if (existing.role !== "admin" || !existing.verified) {
        await UserModel.updateOne({ _id: existing._id }, { $set: { role: "admin", verified: true } });
      }
      return { created: false, email: adminEmail };
    }
    const password = adminPassword ?? randomBytes(12).toString("base64url");
    const usernameTaken = await UserModel.exists({ usernameKey: BUILTIN_ADMIN_USERNAME });
    const username = usernameTaken ? `admin-${randomBytes(3).toString("hex")}` : BUILTIN_ADMIN_USERNAME;
    await UserModel.create({
      email: adminEmail,
      username,
      usernameKey: username,
      name: "Administrator",
      passwordHash: await this.deps.auth.hashPassword(password),
      role: "admin",
      verified: true,
    });
    return { created: true, email: adminEmail, generatedPassword: adminPassword ? undefined : password };
  }
}
