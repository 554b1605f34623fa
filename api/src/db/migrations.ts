/**
 * Start-up data migrations: run by openDatabase() each time the app (server, CLI, tests) connects, before
 * anything reads. Each one is idempotent, so running them again (or in two processes) changes nothing.
 *
 * userIdsToObjectId: every reference to a user is an ObjectId. Older versions stored the user id as a string
 * in some collections; those documents get the ObjectId. Where a collection holds one document per user (and
 * query), the converted document can collide with one the new code already wrote for the same user: the newer
 * (ObjectId) one is kept and the old one removed.
 *
 * The collections are named here, not through the features' models: this runs below every feature, on the
 * stored data as it is. The session store's `sess.userId` is not included: `sess` is the spec's opaque JSON.
 */
import mongoose from "mongoose";
import { logger } from "../logger";

/**
 * Collections whose `userId` refers to a user, with the fields that are unique together with it (the
 * collection's unique index): a converted document must not duplicate one the user already has.
 */
export const USER_REFERENCES: ReadonlyArray<{ collection: string; uniqueWith?: readonly string[] }> = [
  { collection: "chat_sessions" },
  { collection: "chat_messages" },
  { collection: "knowledge_gaps" },
  { collection: "user_bookmarks", uniqueWith: ["articleId"] },
  { collection: "recent_searches", uniqueWith: ["query"] },
  { collection: "user_preferences", uniqueWith: [] },
  { collection: "activity_logs" },
];

const HEX_ID = /^[0-9a-f]{24}$/i;
const DUPLICATE_KEY = 11000;

export interface MigrationReport {
  /** documents whose userId became an ObjectId, per collection */
  converted: Record<string, number>;
  /** old string-id documents removed because the user already had the same document with an ObjectId */
  droppedDuplicates: Record<string, number>;
}

/** Convert string user ids to ObjectIds in every user-reference collection (idempotent). */
export async function userIdsToObjectId(db: mongoose.mongo.Db): Promise<MigrationReport> {
  const report: MigrationReport = { converted: {}, droppedDuplicates: {} };
  for (const { collection: name, uniqueWith } of USER_REFERENCES) {
    const collection = db.collection(name);
    const stale = await collection.find({ userId: { $type: "string" } }).toArray();
    for (const doc of stale) {
      const id = String(doc.userId);
      // not an id at all: nothing it could refer to; leave it for a person to look at
      if (!HEX_ID.test(id)) continue;
      const userId = new mongoose.Types.ObjectId(id);
      const twin =
        uniqueWith &&
        (await collection.findOne({ userId, ...Object.fromEntries(uniqueWith.map((f) => [f, doc[f]])) }));
      try {
        if (twin) throw Object.assign(new Error("duplicate"), { code: DUPLICATE_KEY });
        await collection.updateOne({ _id: doc._id, userId: id }, { $set: { userId } });
        report.converted[name] = (report.converted[name] ?? 0) + 1;
      } catch (e) {
        if ((e as { code?: number }).code !== DUPLICATE_KEY) throw e;
        await collection.deleteOne({ _id: doc._id, userId: id });
        report.droppedDuplicates[name] = (report.droppedDuplicates[name] ?? 0) + 1;
      }
    }
  }
  return report;
}

/** Run every start-up migration on the connected database. */
export async function runMigrations(): Promise<void> {
  const db = mongoose.connection.db;
  if (!db) throw new Error("runMigrations: the database is not connected");
  const report = await userIdsToObjectId(db);
  if (Object.keys(report.converted).length + Object.keys(report.droppedDuplicates).length > 0) {
    logger.info(report, "migrated string user ids to ObjectIds");
  }
}
