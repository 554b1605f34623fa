/** users collection (spec §3). Tokens are stored as SHA-256 hashes, never in the clear. */
import mongoose, { type HydratedDocument, type InferSchemaType, Schema } from "mongoose";
import { onEveryWrite } from "../db/write-hooks";

export const ROLES = ["user", "admin"] as const;
export type RoleName = (typeof ROLES)[number];

const userSchema = new Schema(
  {
    email: { type: String, required: true, unique: true },
    username: { type: String, required: true },
    /** lower-cased username: uniqueness is case-insensitive */
    usernameKey: { type: String, required: true, unique: true },
    passwordHash: { type: String, required: true },
    name: { type: String, required: true },
    role: { type: String, enum: ROLES, default: "user", required: true },
    verified: { type: Boolean, default: false, required: true },
    verificationToken: { type: String, default: null },
    verificationTokenExpires: { type: Date, default: null },
    passwordResetToken: { type: String, default: null },
    passwordResetTokenExpires: { type: Date, default: null },
    lastLogin: { type: Date, default: null },
  },
  { collection: "users", timestamps: true },
);

const writeListeners = new Set<() => void>();

/**
 * Call `listener` around every write through the User model, inserts included (the auth module's cache of
 * signed-in users clears itself this way: a write here must never leave a stale copy behind).
 */
export function onUserWrites(listener: () => void): void {
  writeListeners.add(listener);
}

onEveryWrite(userSchema, { inserts: true }, () => {
  for (const listener of writeListeners) listener();
});

export type UserFields = InferSchemaType<typeof userSchema>;
export type UserDoc = HydratedDocument<UserFields>;
/** A user's id, name, e-mail address and role: who did something, and may they (no document needed). */
export type UserIdentity = Pick<UserDoc, "_id" | "name" | "email" | "role">;

export const UserModel = mongoose.model("User", userSchema);
