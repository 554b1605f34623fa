/**
 * Whose a session or message is: the one lookup every chat operation starts with. Another user's id and an
 * unknown id are refused alike (NOT_FOUND), so ids cannot be probed.
 */
import type mongoose from "mongoose";
import { Errors } from "../errors";
import { inRoom, type MessageRoom, takePlaces } from "./chat.message-count";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { objectId, userOid } from "./chat.rules";
import { modelCollection } from "./chat.store";

/**
 * The user's session (as it was before `touch` set its lastUpdated); NOT_FOUND otherwise. With `room` the same
 * write takes the places of the messages about to be stored (chat.message-count.ts): CHAT_SESSION_FULL when the
 * session has no room for them.
 */
export async function ownSession(
  userId: string,
  sessionId: string,
  { touch, leaf, room }: { touch?: Date; leaf?: mongoose.Types.ObjectId; room?: MessageRoom } = {},
) {
  if (typeof sessionId !== "string" || !sessionId || sessionId.length > 100) {
    throw Errors.notFound("chat.sessionNotFound");
  }
  const filter = { sessionId, userId: userOid(userId) };
  const find = () => ChatSessionModel.findOne(filter).lean();
  // through the driver (every value already in its stored type): a send's first round trip, where mongoose's
  // casting of the filter and update is CPU every question of a burst waits for
  const touched = (f: object) =>
    modelCollection(ChatSessionModel).findOneAndUpdate(
      f,
      {
        $set: { lastUpdated: touch, hasMessages: true, ...(leaf ? { activeLeafId: leaf } : {}) },
        ...(room ? { $inc: takePlaces(room) } : {}),
      },
      { returnDocument: "before" },
    ) as unknown as Promise<Awaited<ReturnType<typeof find>>>;
  const doc = !touch ? await find() : room ? await inRoom(filter, room, touched) : await touched(filter);
  if (!doc) throw Errors.notFound("chat.sessionNotFound");
  return doc;
}

/** The user's message; NOT_FOUND for another user's or an unknown id. */
export async function ownMessage(userId: string, messageId: string) {
  const oid = objectId(messageId);
  if (!oid) throw Errors.notFound("chat.messageNotFound");
  const doc = await ChatMessageModel.findOne({ _id: oid, userId: userOid(userId) }).lean();
  if (!doc) throw Errors.notFound("chat.messageNotFound");
  return doc;
}
