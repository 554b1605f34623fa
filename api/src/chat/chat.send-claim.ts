/**
 * The first round trip of a send (chat.send.ts), all at once: one of the user's answer slots, the session (its
 * "last used" and shown branch's end set to the new answer, read as it was before), its messages and the user's
 * language. Before, each waited for the one before it, and under a burst of questions every step is a queue at
 * the store: the model is now asked after one round trip instead of three.
 */
import type mongoose from "mongoose";
import { logger } from "../logger";
import type { ChatUserCache } from "./chat.cache";
import { type HistoryDoc, type HistoryTree, loadRecentHistory } from "./chat.history";
import { givePlaces } from "./chat.message-count";
import { ChatSessionModel } from "./chat.model";
import { ownSession } from "./chat.ownership";
import type { AnswerRunner } from "./chat.runner";
import { MessageTree } from "./chat.tree";

type SessionBefore = Awaited<ReturnType<typeof ownSession>>;

/** history is context, not a condition: a failed lookup answers without it */
export const noTree = (err: unknown): HistoryTree => {
  logger.warn({ err }, "chat: could not load earlier turns");
  const tree: HistoryTree = new MessageTree<HistoryDoc>([]);
  tree.readFailed = true;
  return tree;
};

/** a question takes two places in its session: itself and its answer */
export const SEND_PLACES = 2;

/**
 * Put back what a refused send's ownSession set ("last used", the shown branch's end), unless another send has
 * moved the shown branch since (its question then follows a message that does not exist, read as the one
 * before it: chat.tree.ts), and give back its places in the session. A failure is logged: the session then only
 * looks used a moment later than it was (and ends two messages early).
 */
async function undoTouch(before: SessionBefore, leaf: mongoose.Types.ObjectId): Promise<void> {
  await Promise.all([
    ChatSessionModel.updateOne(
      { _id: before._id, activeLeafId: leaf },
      {
        $set: {
          lastUpdated: before.lastUpdated,
          hasMessages: before.hasMessages ?? false,
          activeLeafId: before.activeLeafId ?? null,
        },
      },
    ),
    givePlaces(before._id, SEND_PLACES),
  ]).catch((err) => logger.warn({ err }, "chat: refused question's session update not undone"));
}

/**
 * Claim a send's place: slot, session, history and language in parallel. Refused as when the steps ran one by
 * one: TOO_MANY_REQUESTS first (the session's update is undone, so a refused question leaves nothing behind),
 * then NOT_FOUND or CHAT_SESSION_FULL (the slot is given back). `release` gives the slot back. The session's
 * write takes the question's and its answer's places (chat.message-count.ts: at most `messagesPerSession`).
 */
export async function claimSend(
  deps: { runner: AnswerRunner; users: ChatUserCache; limits: { messagesPerSession: number } },
  userId: string,
  sessionId: string,
  touch: Date,
  leaf: mongoose.Types.ObjectId,
) {
  const [slot, owned, loaded, language] = await Promise.allSettled([
    deps.runner.reserve(userId),
    ownSession(userId, sessionId, {
      touch,
      leaf,
      room: { add: SEND_PLACES, max: deps.limits.messagesPerSession },
    }),
    loadRecentHistory(sessionId, userId).catch(noTree),
    deps.users.languageOf(userId),
  ]);
  if (slot.status === "rejected") {
    if (owned.status === "fulfilled") await undoTouch(owned.value, leaf);
    throw slot.reason;
  }
  if (owned.status === "rejected" || loaded.status === "rejected" || language.status === "rejected") {
    slot.value();
    throw [owned, loaded, language].find((r) => r.status === "rejected")?.reason;
  }
  return { release: slot.value, session: owned.value, tree: loaded.value, language: language.value };
}
