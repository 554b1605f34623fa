/**
 * The chat's message state, kept outside the Apollo cache: a plain array updated by pure functions, so a streamed
 * token touches one message (and one row) instead of normalising thousands of cached objects.
 */
import type {
  ChatMessageBranchFieldsFragment,
  ChatMessageEventsSubscription,
  ChatMessageFieldsFragment,
} from "../../../gql/graphql";

/** A message; its place among the alternatives comes with lists and mutations, not with live events. */
export type Message = ChatMessageFieldsFragment & Partial<ChatMessageBranchFieldsFragment>;
export type MessageEvent = ChatMessageEventsSubscription["chatMessageEvents"];

export function isInProgress(m: Pick<Message, "role" | "status">): boolean {
  return m.role === "assistant" && (m.status === "pending" || m.status === "streaming");
}

/**
 * Inserts or replaces one message by id (new ones are appended: the server sends them in order). A replacement
 * keeps the fields the new copy does not carry (its place among the alternatives, absent from live events).
 */
export function upsertMessage(list: readonly Message[], message: Message): Message[] {
  const index = list.findIndex((m) => m.id === message.id);
  if (index === -1) return [...list, message];
  const next = list.slice();
  const before = list[index];
  next[index] =
    message.siblingCount === undefined && before?.siblingCount !== undefined
      ? {
          ...message,
          siblingIndex: before.siblingIndex,
          siblingCount: before.siblingCount,
          siblingIds: before.siblingIds,
        }
      : message;
  return next;
}

/** Does a message not in the list continue the shown branch (or belong to another branch)? */
export function continuesBranch(list: readonly Message[], message: Message): boolean {
  if (message.parentId == null) return true;
  const last = list[list.length - 1];
  return !last || last.id === message.parentId;
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
  if (!event.message) return list as Message[];
  // an answer of a branch not shown (still generating after an edit) stays out of the list
  const known = list.some((m) => m.id === event.message?.id);
  // (a new question's answer may be announced before the send's response brings the question: CREATED is kept)
  const parentShown = list.some((m) => m.id === event.message?.parentId);
  const fresh = event.type === "CREATED" && !parentShown;
  if (!known && !fresh && !continuesBranch(list, event.message)) return list as Message[];
  return upsertMessage(list, event.message);
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
