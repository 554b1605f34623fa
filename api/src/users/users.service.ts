/**
 * User administration: the admin list (with counts), search, delete with cascade, admin password reset,
 * and the built-in admin created at start-up. Every operation checks the actor's rights here, not only in
 * the transport.
 */
import { randomBytes } from "node:crypto";
import { type RegisterFields, validatePassword } from "@vidensbank/shared";
import mongoose from "mongoose";
import { recordActivity } from "../activity/activity.service";
import type { AuthService } from "../auth/auth.service";
import { hashPassword, newPasswordFields } from "../auth/passwords";
import type { AppConfig } from "../config";
import { Errors } from "../errors";
import { escapeRegExp } from "../util";
import { PreferencesModel } from "./preferences.model";
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

/** Collections owned by other modules that hold a userId; removed with the user. */
const CASCADE_COLLECTIONS = [
  "chat_sessions",
  "chat_messages",
  "user_bookmarks",
  "recent_searches",
  "knowledge_gaps",
] as const;

export interface UsersServiceDeps {
  config: AppConfig;
  auth: AuthService;
  /** writes of other modules still queued (searches being recorded): done before a user's data is deleted */
  pendingWrites?: () => Promise<void>;
}

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  /** The built-in admin (ADMIN_EMAIL or the admin username) can never be deleted. */
  isProtected(user: Pick<UserDoc, "email" | "usernameKey">): boolean {
    return user.email === this.deps.config.adminEmail || user.usernameKey === BUILTIN_ADMIN_USERNAME;
  }

  private assertAdmin(actor: UserDoc): void {
    if (actor.role !== "admin") throw Errors.forbidden("errors.adminOnly");
  }

  /** All users, newest first, optionally filtered (case-insensitive over e-mail, name and username). */
  async listUsers(actor: UserDoc, search?: string | null): Promise<AdminUserView[]> {
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
      countByUser("chat_sessions"),
      countByUser("user_bookmarks"),
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
    if (!mongoose.isValidObjectId(id)) throw Errors.notFound("users.notFound");
    const user = await UserModel.findById(id);
    if (!user) throw Errors.notFound("users.notFound");
    return user;
  }

  /** A user's e-mail (other modules' activity entries); null for an unknown or malformed id. */
  async emailOf(id: string): Promise<string | null> {
    if (!mongoose.isValidObjectId(id)) return null;
    return (await UserModel.findById(id, { email: 1 }).lean())?.email ?? null;
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
  async createUser(actor: UserDoc, input: CreateUserInput, meta: AdminActionMeta = {}): Promise<PublicUser> {
    this.assertAdmin(actor);
    const user = await this.deps.auth.createAccount(
      { email: input.email, name: input.name, username: input.username, password: input.password },
      { role: input.role ?? "user", verified: input.verified ?? true },
    );
    await recordActivity({
      action: "admin_create_user",
      description: `Administrator oprettede brugeren ${user.email}${meta.via === "cli" ? " (CLI)" : ""}`,
      userEmail: actor.email,
      userId: String(actor._id),
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
  async deleteUser(actor: UserDoc, id: string): Promise<void> {
    this.assertAdmin(actor);
    const user = await this.getUser(id);
    if (this.isProtected(user)) throw Errors.forbidden("users.adminProtected");
    if (String(user._id) === String(actor._id)) throw Errors.forbidden("users.notSelf");
    await this.deps.pendingWrites?.();
    await deleteUserData(user);
    await this.deps.auth.revokeSessions(String(user._id));
    await recordActivity({
      action: "admin_delete_user",
      description: `Administrator slettede brugeren ${user.email}`,
      userEmail: actor.email,
      userId: String(actor._id),
      metadata: { deletedUserId: String(user._id), deletedEmail: user.email },
    });
  }

  /**
   * Set a user's password as admin (≥ 6 characters; also the CLI's reset): the user's login sessions end and
   * the reset and verification links mailed before it stop working.
   */
  async adminResetPassword(actor: UserDoc, userId: string, newPassword: string): Promise<void> {
    this.assertAdmin(actor);
    const problem = validatePassword(newPassword);
    if (problem) throw Errors.invalidFields([{ field: "newPassword", ...problem }]);
    const user = await this.getUser(userId);
    await UserModel.updateOne({ _id: user._id }, { $set: await newPasswordFields(newPassword) });
    await this.deps.auth.revokeSessions(String(user._id));
    await recordActivity({
      action: "admin_reset_password",
      description: `Administrator nulstillede adgangskoden for ${user.email}`,
      userEmail: actor.email,
      userId: String(actor._id),
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
      passwordHash: await hashPassword(password),
      role: "admin",
      verified: true,
    });
    return { created: true, email: adminEmail, generatedPassword: adminPassword ? undefined : password };
  }
}

/** userId may be stored as a string or an ObjectId by the owning module: match both. */
function userIdFilter(id: string): Record<string, unknown> {
  return { userId: { $in: [id, new mongoose.Types.ObjectId(id)] } };
}

async function countByUser(collection: string): Promise<Map<string, number>> {
  const rows = await mongoose.connection
    .collection(collection)
    .aggregate<{ _id: unknown; n: number }>([{ $group: { _id: "$userId", n: { $sum: 1 } } }])
    .toArray();
  const counts = new Map<string, number>();
  // string and ObjectId ids of one user form two groups: add them up
  for (const r of rows) counts.set(String(r._id), (counts.get(String(r._id)) ?? 0) + r.n);
  return counts;
}

async function deleteUserData(user: UserDoc): Promise<void> {
  const id = String(user._id);
  const db = mongoose.connection;
  await Promise.all(CASCADE_COLLECTIONS.map((c) => db.collection(c).deleteMany(userIdFilter(id))));
  await PreferencesModel.deleteMany({ userId: user._id });
  await UserModel.deleteOne({ _id: user._id });
}
