/**
 * How many chat sessions each user has, counted in the store so that the cap (ChatLimits.sessionsPerUser,
 * CHAT_SESSIONS_PER_USER_MAX) holds across processes: `chat_session_counts` keeps one document per user
 * (`{ _id: <user id>, n }`). A new session first takes a place with one conditional write (`$inc` only while
 * n < max: of two creations at n = max − 1 one passes), a deleted session gives its place back.
 *
 * A user's count is made at their first creation from the sessions stored (users from before the cap, some of
 * them over it: they read and delete as before, and create again once under it). The count can only run high,
 * never low: a process ending between taking a place and storing the session, or a deletion while the count is
 * being made, costs that user a place, which deleting a session gives back.
 */
import { AppError } from "../errors";
import { ChatSessionModel } from "./chat.model";
import { userOid } from "./chat.rules";
import { storeCollection } from "./chat.store";

export const SESSION_COUNTS_COLLECTION = "chat_session_counts";

interface CountDoc {
  _id: string;
  n: number;
}

const counts = () => storeCollection<CountDoc>(SESSION_COUNTS_COLLECTION);

/** Take one of the user's `max` session places; CHAT_SESSION_LIMIT when all are taken. */
export async function takeSessionPlace(userId: string, max: number): Promise<void> {
  const oid = userOid(userId);
  for (let attempt = 0; attempt < 2; attempt++) {
    const taken = await counts().updateOne({ _id: userId, n: { $lt: max } }, { $inc: { n: 1 } });
    if (taken.matchedCount === 1) return;
    // no place: the user is at the cap, or has no count yet (first creation since the cap came)
    if (await counts().findOne({ _id: userId }, { projection: { _id: 1 } })) break;
    const n = await ChatSessionModel.countDocuments({ userId: oid });
    try {
      await counts().insertOne({ _id: userId, n });
    } catch (err) {
      // another creation made the count at the same moment: take the place from it
      if ((err as { code?: unknown }).code !== 11000) throw err;
    }
  }
  throw new AppError("CHAT_SESSION_LIMIT", "chat.sessionLimit", { max });
}

/** Give a place back (a session deleted, or not stored after all). */
export async function giveSessionPlace(userId: string): Promise<void> {
  await counts().updateOne({ _id: userId, n: { $gt: 0 } }, { $inc: { n: -1 } });
}

/** Forget the user's count (the user is deleted with their sessions). */
export async function forgetSessionCount(userId: string): Promise<void> {
  await counts().deleteOne({ _id: userId });
}
