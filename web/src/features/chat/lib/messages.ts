/**
 * The chat's message state, kept outside the Apollo cache: a plain array updated by pure functions, so a streamed
 * token touches one message (and one row) instead of normalising thousands of cached objects.
 */
import type { ChatMessageEventsSubscription, ChatMessageFieldsFragment } from "../../../gql/graphql";

export type Message = ChatMessageFieldsFragment;
export type MessageEvent = ChatMessageEventsSubscription["chatMessageEvents"];

export function isInProgress(m: Pick<Message, "role" | "status">): boolean {
  return m.role === "assistant" && (m.status === "pending" || m.status === "streaming");
}

/** Inserts or replaces one message by id (new ones are appended: the server sends them in order). */
export function upsertMessage(list: readonly Message[], message: Message): Message[] {
  const index = list.findIndex((m) => m.id === message.id);
  if (index === -1) return [...list, message];
  const next = list.slice();
  next[index] = message;
  return next;
}

/** Applies one live event: DELTA appends text to the streaming answer; the others carry the stored message. */
export function applyEvent(list: readonly Message[], event: MessageEvent): Message[] {
  if (event.type === "DELTA") {
    const index = list.findIndex((m) => m.id === event.messageId);
    const current = list[index];
    if (!current || !event.delta || !isInProgress(current)) return list as Message[];
    const next = list.slice();
    next[index] = { ...current, status: "streaming", content: current.content + event.delta };
    return next;
  }
  return event.message ? upsertMessage(list, event.message) : (list as Message[]);
}

/**
 * Merges a polled list into the local one. A finished message from the server always wins; an answer the server
 * still reports in progress keeps the local state when that is finished (the poll was answered before the outcome
 * arrived live) or has longer text (live tokens arrived after the server's last save).
 */
export function mergePolled(local: readonly Message[], polled: readonly Message[]): Message[] {
  const byId = new Map(local.map((m) => [m.id, m]));
  return polled.map((m) => {
    const mine = byId.get(m.id);
    if (mine && isInProgress(m)) {
      // a poll answered before the outcome arrived live must not undo it
      if (!isInProgress(mine)) return mine;
      if (mine.content.length > m.content.length) return mine;
    }
    return m;
  });
}
