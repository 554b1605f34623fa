/**
 * How many messages a session holds, counted on the session document (`messageCount`: every question and answer
 * of every branch), so that the cap (ChatLimits.messagesPerSession, CHAT_MESSAGES_PER_SESSION_MAX) holds across
 * processes: a send, an edit or a regeneration takes its places with the write that claims the session anyway, a
 * conditional `$inc` (only while the places are free: of two questions sent at once into the last places one
 * passes). Refused: CHAT_SESSION_FULL, nothing stored.
 *
 * A session from before the count has no `messageCount`: it is counted from its messages at its first question
 * since. The count can only run high, never low (a question whose messages were not stored after all keeps its
 * places): the session then ends a few messages early.
 */
import type mongoose from "mongoose";
import { AppError, Errors } from "../errors";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { modelCollection } from "./chat.store";

/** The places a write takes: `add` messages in a session that may hold `max`. */
export interface MessageRoom {
  add: number;
  max: number;
}

/** A session filter (sessionId and owner) that matches only while the session has room for `room.add` more. */
export function withRoom<F extends object>(
  filter: F,
  room: MessageRoom,
): F & { messageCount: { $lte: number } } {
  return { ...filter, messageCount: { $lte: room.max - room.add } };
}

/** The update part that takes the places. */
export function takePlaces(room: MessageRoom): { messageCount: number } {
  return { messageCount: room.add };
}

/**
 * Take `room.add` places in the session: `write` is the caller's conditional write with the filter given (from
 * withRoom, its update including `$inc: takePlaces(room)`), resolving to null when it matched nothing. Refused:
 * NOT_FOUND (no such session of the user) or CHAT_SESSION_FULL.
 */
export async function inRoom<T>(
  filter: { sessionId: string; userId: unknown },
  room: MessageRoom,
  write: (filter: object) => Promise<T | null>,
): Promise<T> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const done = await write(withRoom(filter, room));
    if (done !== null) return done;
    const session = await modelCollection(ChatSessionModel).findOne(filter, {
      projection: { _id: 1, messageCount: 1 },
    });
    if (!session) throw Errors.notFound("chat.sessionNotFound");
    if (typeof session.messageCount === "number") break;
    // a session from before the count: counted now (once: only while it has no count), then asked again
    const n = await modelCollection(ChatMessageModel).countDocuments(filter);
    await modelCollection(ChatSessionModel).updateOne(
      { _id: session._id, messageCount: { $exists: false } },
      { $set: { messageCount: n } },
    );
  }
  throw new AppError("CHAT_SESSION_FULL", "chat.sessionFull");
}

/** Give back places taken for messages that were not stored (a refused question). */
export async function givePlaces(sessionDocId: mongoose.Types.ObjectId, add: number): Promise<void> {
  await modelCollection(ChatSessionModel).updateOne(
    { _id: sessionDocId, messageCount: { $gte: add } },
    { $inc: { messageCount: -add } },
  );
}
