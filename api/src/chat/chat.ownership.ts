/**
 * Whose a session or message is: the one lookup every chat operation starts with. Another user's id and an
 * unknown id are refused alike (NOT_FOUND), so ids cannot be probed.
 */
import { Errors } from "../errors";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { objectId, userOid } from "./chat.rules";

/** The user's session (as it was before `touch` set its lastUpdated); NOT_FOUND otherwise. */
export async function ownSession(
  userId: string,
  sessionId: string,
  { touch, leaf }: { touch?: Date; leaf?: unknown } = {},
) {
  if (typeof sessionId !== "string" || !sessionId || sessionId.length > 100) {
    throw Errors.notFound("chat.sessionNotFound");
  }
  const filter = { sessionId, userId: userOid(userId) };
  const doc = touch
    ? await ChatSessionModel.findOneAndUpdate(
        filter,
        { $set: { lastUpdated: touch, hasMessages: true, ...(leaf ? { activeLeafId: leaf } : {}) } },
        { returnDocument: "before" },
      ).lean()
    : await ChatSessionModel.findOne(filter).lean();
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
