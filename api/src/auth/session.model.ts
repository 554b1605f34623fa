/**
 * sessions collection (spec §3: sid, sess (JSON), expire). One record per login; the JWT carries the sid, so
 * deleting the record revokes the token. A TTL index removes expired records.
 */
import mongoose, { type InferSchemaType, Schema } from "mongoose";
import { invalidateAuthCacheOnWrites } from "./auth.cache";

export interface SessionData {
  userId: string;
  createdAt: string;
  ip?: string;
  userAgent?: string;
}

const sessionSchema = new Schema(
  {
    sid: { type: String, required: true, unique: true },
    sess: { type: Schema.Types.Mixed, required: true },
    expire: { type: Date, required: true },
  },
  { collection: "sessions", versionKey: false },
);
sessionSchema.index({ expire: 1 }, { expireAfterSeconds: 0 });
sessionSchema.index({ "sess.userId": 1 });

// signed-in requests are answered from a cache of sessions: a deleted or changed session must clear it (a new
// one cannot make an entry stale)
invalidateAuthCacheOnWrites(sessionSchema, { inserts: false });

export type SessionFields = InferSchemaType<typeof sessionSchema>;

export const SessionModel = mongoose.model("Session", sessionSchema);
