/**
 * The driver's own collection objects for the writes and reads of a send's way to the model (chat.send.ts,
 * chat.send-claim.ts, chat.slots.ts): mongoose's collection wrapper (its buffering and debug checks around each
 * call) and a new driver Collection per call (its options resolved again each time) were ~1 % of a question's
 * CPU before its model request. Made once per connection's database.
 */
import type { Collection, Db, Document } from "mongodb";
import mongoose from "mongoose";

const made = new Map<string, { db: Db; collection: Collection<Document> }>();

/** the chat module's own collections (chat_sessions, chat_messages, chat_answer_slots): no other module's */
const CHAT_COLLECTION = /^chat_[a-z_]+$/;

/** The driver collection `name` of mongoose's connection (throws before the first connect). */
export function storeCollection<T extends Document = Document>(name: string): Collection<T> {
  if (!CHAT_COLLECTION.test(name)) throw new Error(`not a chat collection: ${name}`);
  const db = mongoose.connection.db;
  if (!db) throw new Error("not connected");
  let entry = made.get(name);
  if (!entry || entry.db !== db) {
    entry = { db, collection: db.collection(name) };
    made.set(name, entry);
  }
  return entry.collection as unknown as Collection<T>;
}

/** The driver collection of a mongoose model. */
export function modelCollection<T extends Document = Document>(model: {
  collection: { collectionName: string };
}): Collection<T> {
  return storeCollection<T>(model.collection.collectionName);
}
