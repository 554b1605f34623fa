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
/** a live event as the message list applies it (a TITLED event's `title` concerns the session list, not this one) */
export type MessageEvent = Omit<ChatMessageEventsSubscription["chatMessageEvents"], "title">;

/** A message with `fields` and nothing else yet (no citations, no feedback, no place among alternatives). */
export function bareMessage(
  fields: Pick<Message, "id" | "sessionId" | "role" | "content"> & Partial<Message>,
): Message {
  return {
    timestamp: new Date(0).toISOString(),
    status: null,
    replyTo: null,
    mode: null,
    knowledgeGap: false,
    usedNumbers: [],
    citations: [],
    freshnessWarnings: [],
    error: null,
    feedback: null,
    parentId: null,
    followUps: [],
    scope: null,
    ...fields,
  };
}

export function isInProgress(m: Pick<Message, "role" | "status">): boolean {
  return m.role === "assistant" && (m.status === "pending" || m.status === "streaming");
}

/**
 * Inserts or replaces one message by id. A new one goes before its reply when that is already listed (an answer's
 * CREATED event can arrive before the send's response brings its question), else at the end. A replacement
 * keeps the fields the new copy does not carry (its place among the alternatives, absent from live events).
 */
export function upsertMessage(list: readonly Message[], message: Message): Message[] {
  const index = list.findIndex((m) => m.id === message.id);
  if (index === -1) {
    const reply = list.findIndex((m) => m.parentId === message.id);
    return reply === -1 ? [...list, message] : [...list.slice(0, reply), message, ...list.slice(reply)];
  }
  const next = list.slice();
  const before = list[index];
  next[index] =
    message.siblingCount === undefined && before?.siblingCount !== undefined
      ? { ...message, ...placeOf(before) }
      : message;
  return next;
}

/** Does a message not in the list continue the shown branch (or belong to another branch)? */
export function continuesBranch(list: readonly Message[], message: Message): boolean {
  if (message.parentId == null) return true;
  const last = list[list.length - 1];
  return !last || last.id === message.parentId;
}

/**
 * What the client learned of messages it listed or was told of (id → parentId): kept for the session, so a
 * message that left the list (the user showed another branch) still says where it hangs (rememberParents).
 */
export type Ancestry = ReadonlyMap<string, string | null>;

/** Adds the parents of `messages` to `ancestry`. */
export function rememberParents(ancestry: Map<string, string | null>, messages: Iterable<Message>): void {
  for (const m of messages) ancestry.set(m.id, m.parentId ?? null);
}

/**
 * Applies one live event: DELTA appends text to the streaming answer; the others carry the stored message
 * (UPDATED: a finished one that changed, e.g. its model-written follow-ups arrived). A new answer to a question
 * that is shown but already answered is a regeneration: the server shows it from now on, so the list does too
 * (the messages after the question give way to it), and its tokens stream from the first one, before the
 * mutation's response says which answer it started. `ancestry` (what the client knows of messages not listed)
 * and a CREATED's `questionParentId` (where its question hangs) tell an answer deep in a branch not shown from a
 * new one.
 */
export function applyEvent(
  list: readonly Message[],
  event: MessageEvent,
  ancestry: Ancestry = new Map(),
): Message[] {
  if (event.type === "DELTA") {
    const index = list.findIndex((m) => m.id === event.messageId);
    const current = list[index];
    if (!current || !event.delta || !isInProgress(current)) return list as Message[];
    const next = list.slice();
    next[index] = { ...current, status: "streaming", content: current.content + event.delta };
    return next;
  }
  if (!event.message) return list as Message[];
  const known = list.some((m) => m.id === event.message?.id);
  // UPDATED (a finished answer's new follow-ups) only changes a message already listed
  if (event.type === "UPDATED" && !known) return list as Message[];
  // an answer of a branch not shown (still generating after an edit) stays out of the list
  // (a new question's answer may be announced before the send's response brings the question: CREATED is kept)
  const questionParent = event.type === "CREATED" ? event.questionParentId : undefined;
  if (!known && onHiddenBranch(list, event.message, ancestry, questionParent)) return list as Message[];
  const parent = list.findIndex((m) => m.id === event.message?.parentId);
  if (event.type === "CREATED" && !known && parent !== -1 && parent < list.length - 1)
    return [...list.slice(0, parent + 1), event.message];
  const fresh = event.type === "CREATED" && parent === -1;
  if (!known && !fresh && !continuesBranch(list, event.message)) return list as Message[];
  return upsertMessage(list, event.message);
}

/**
 * Is `message` (not listed) provably on a branch the list does not show? Its ancestry is followed up from it
 * (its own parentId, then what `ancestry` knows) until one of:
 * - an alternative of a listed message (a listed message's siblingIds): hidden. The user switched away from it
 *   (a regeneration's answer still streaming, an edit's question), and a reconnect's catch-up (api
 *   chat.catch-up.ts) brings its CREATED again: the branch the user chose stays shown;
 * - a listed message before the last, reached through a message that is not the event's own: that message is
 *   an alternative of the listed one after it, so hidden (the event's own parent listed is a regeneration, or the
 *   answer of a listed question: shown, see applyEvent);
 * - the event's question, not known to the client (a send's question arrives with the send's response, an edit's
 *   with the edit's): a CREATED says where it hangs (`questionParent`, the API's `questionParentId`). Under the
 *   last listed message (a send), beside a listed message (an edit; a root beside a listed root), or in an
 *   empty list, it is new and shown; anywhere else it hangs below a message the list does not show: hidden. So
 *   a catch-up's answer deep in a branch the client never listed (after a reload) stays out too;
 * - the last listed message, a root, or another message the client does not know: not provably hidden, so shown
 *   as before.
 */
function onHiddenBranch(
  list: readonly Message[],
  message: Message,
  ancestry: Ancestry,
  questionParent?: string | null,
): boolean {
  const listed = new Map(list.map((m, i) => [m.id, i]));
  const alternatives = new Set(list.flatMap((m) => m.siblingIds ?? []).filter((id) => !listed.has(id)));
  if (alternatives.has(message.id)) return true;
  let child = message.id;
  let id = message.parentId ?? null;
  // each step goes one level up; a cycle in what the client was told cannot loop longer than it knows messages
  for (let steps = 0; id !== null && steps <= ancestry.size; steps++) {
    const index = listed.get(id);
    if (index !== undefined) return child !== message.id && index < list.length - 1;
    if (alternatives.has(id)) return true;
    const parent = ancestry.get(id);
    if (parent === undefined)
      return id === message.parentId && questionParent !== undefined && !placesNew(list, questionParent);
    child = id;
    id = parent;
  }
  return false;
}

/** Would a new question under `parent` (null: a first question) be on the shown branch (a send's or an edit's)? */
function placesNew(list: readonly Message[], parent: string | null): boolean {
  return (
    list.length === 0 ||
    list[list.length - 1]?.id === parent ||
    list.some((m) => (m.parentId ?? null) === parent)
  );
}

/**
 * Merges a polled list (the newest page) into the local one. A finished message from the server always wins; an
 * answer the server still reports in progress keeps the local state when that is finished (the poll was answered
 * before the outcome arrived live) or has longer text (live tokens arrived after the server's last save). The
 * earlier pages loaded before the polled page's first message stay; when that message is not in the local list
 * (the shown branch changed), the polled page replaces it.
 */
export function mergePolled(local: readonly Message[], polled: readonly Message[]): Message[] {
  const byId = new Map(local.map((m) => [m.id, m]));
  const start = polled[0] ? local.findIndex((m) => m.id === polled[0]?.id) : -1;
  return [...local.slice(0, Math.max(start, 0)), ...polled.map((m) => newerOf(byId.get(m.id), m))];
}

/**
 * The messages are a page of the shown branch from the newest end; earlier ones exist when the first has a parent
 * (the first message of a branch is the only one without: the API's rule, api/src/chat/chat.pages.ts).
 */
export function hasEarlier(list: readonly Message[]): boolean {
  return list.length > 0 && list[0]?.parentId != null;
}

/**
 * An earlier page put before the list, when it still fits: it must end just before the list's first message (the
 * list may have changed while it loaded: another branch shown). Returns null when it does not fit.
 */
export function prependEarlier(list: readonly Message[], earlier: readonly Message[]): Message[] | null {
  const last = earlier[earlier.length - 1];
  if (!last || list[0]?.parentId !== last.id) return null;
  return [...earlier, ...list];
}

/**
 * The further along of a local copy and a copy from the server that may be older: a copy the server reports in
 * progress loses to a local one that is finished (its outcome arrived live) or has longer text (live tokens).
 */
function newerOf(mine: Message | undefined, theirs: Message): Message {
  if (mine && isInProgress(theirs) && (!isInProgress(mine) || mine.content.length > theirs.content.length)) {
    return mine;
  }
  return theirs;
}

/**
 * Adds what a mutation that starts a new answer returned (send, edit, regenerate: the question and the pending
 * answer), after the messages before `fromId` (all are kept when it is undefined, none when null). Its events can
 * arrive before its response: the answer then keeps what they brought, and the question goes before it.
 */
export function addStarted(
  list: readonly Message[],
  fromId: string | null | undefined,
  ...started: Message[]
): Message[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  const index = fromId === undefined ? -1 : fromId === null ? 0 : list.findIndex((m) => m.id === fromId);
  const kept = list.filter((m, i) => (index === -1 || i < index) && !started.some((s) => s.id === m.id));
  return [
    ...kept,
    ...started.map((m) => {
      const newer = newerOf(byId.get(m.id), m);
      // the live copy lacks the answer's place among the alternatives, which the response carries
      return newer === m || m.siblingCount === undefined ? newer : { ...newer, ...placeOf(m) };
    }),
  ];
}

const placeOf = (m: Message) => ({
  siblingIndex: m.siblingIndex,
  siblingCount: m.siblingCount,
  siblingIds: m.siblingIds,
});
