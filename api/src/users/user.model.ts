/** users collection (spec §3). Tokens are stored as SHA-256 hashes, never in the clear. */
import mongoose, { type HydratedDocument, type InferSchemaType, Schema } from "mongoose";
import { invalidateAuthCacheOnWrites } from "../auth/auth.cache";

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

// signed-in requests are answered from a cache of users: every write here must clear it
invalidateAuthCacheOnWrites(userSchema, { inserts: true });

export type UserFields = InferSchemaType<typeof userSchema>;
export type UserDoc = HydratedDocument<UserFields>;

export const UserModel = mongoose.model("User", userSchema);
