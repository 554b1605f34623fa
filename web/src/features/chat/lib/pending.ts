/**
 * What the user sees between starting an answer and its mutation's response (spec §4: on send the question shows
 * and "Genererer svar..." with it). The question and the answer the mutation starts join the message list when
 * its response arrives, when the session's messages load, or with the answer's first live event, whichever is
 * first; until then the list shows a stand-in of each: the question as typed and an answer still waiting (its
 * row shows the indicator). The real message takes its stand-in's row key, so the row stays where it is and
 * keeps its measured size: no flash, no jump.
 */
import { bareMessage, isInProgress, type Message } from "./messages";

export interface PendingAnswer {
  /** unique per started answer: the stand-ins' row keys derive from it */
  key: string;
  /** the session it was started in; null while the send creates the session */
  sessionId: string | null;
  /**
   * the ids listed when it was started: the question and the answer it started are among the others (so are
   * messages of the session loaded since, or an earlier page: they are told apart by content and parent)
   */
  before: ReadonlySet<string>;
  /**
   * where the new messages go: after the list (undefined: a send), instead of this message and those after it
   * (a regeneration: the answer), or in place of this answer (`retry`)
   */
  from?: string;
  /** an edit: the messages after this one (its editor stays, with the text, until the edit is saved) */
  after?: string;
  /** the question as sent (a send); null when the answer is to a question already shown */
  question: string | null;
  /** the answer is retried in place (its id stays) */
  retry?: boolean;
  /** a regeneration: the question the new answer replies to */
  parent?: string | null;
}

/** the row key of a stand-in (and of the real message that replaces it) */
export const pendingRowKey = (p: Pick<PendingAnswer, "key">, role: "user" | "assistant") =>
  `pending:${p.key}:${role}`;

/** The messages to show while `pending` (of the shown session) waits, and the row keys of those that joined. */
export function withPending(
  list: readonly Message[],
  pending: PendingAnswer | null,
): { messages: Message[]; keys: ReadonlyMap<string, string> } {
  if (!pending) return { messages: list as Message[], keys: new Map() };
  if (pending.retry) {
    // the failed or stopped answer waits again: its text, error and actions go until the new attempt's come
    const messages = list.map(
      (m): Message =>
        m.id === pending.from && !isInProgress(m) ? { ...m, status: "pending", content: "", error: null } : m,
    );
    return { messages, keys: new Map() };
  }
  const isNew = (m: Message) => !pending.before.has(m.id);
  const listed = new Set(list.map((m) => m.id));
  // the question sent (the newest such); the answer to it, or to the regenerated answer's question, or (its
  // question not listed yet: an answer's CREATED event came first, for a send or an edit) an answer whose
  // question is not listed (after the messages listed when it was sent: an earlier page put before them may hold
  // the same question)
  const lastKnown = list.findLastIndex((m) => pending.before.has(m.id));
  const sent =
    pending.question === null
      ? undefined
      : list.findLast((m, i) => i > lastKnown && m.role === "user" && m.content === pending.question);
  const started = list.find(
    (m) =>
      m.role === "assistant" &&
      isNew(m) &&
      (sent
        ? m.parentId === sent.id
        : pending.parent !== undefined
          ? m.parentId === pending.parent
          : (pending.question !== null || pending.after !== undefined) && !listed.has(m.parentId ?? "")),
  );
  const at = (id: string | undefined, plus: number) => {
    const index = id === undefined ? -1 : list.findIndex((m) => m.id === id);
    return index === -1 ? -1 : index + plus;
  };
  const cut = pending.after !== undefined ? at(pending.after, 1) : at(pending.from, 0);
  const kept = list.filter((m, i) => m !== sent && m !== started && (cut === -1 || i < cut));
  const keys = new Map<string, string>();
  if (sent) keys.set(sent.id, pendingRowKey(pending, "user"));
  if (started) keys.set(started.id, pendingRowKey(pending, "assistant"));
  const question = pending.question === null ? [] : [sent ?? standIn(pending, "user", pending.question)];
  const answer = started ?? standIn(pending, "assistant", "");
  return { messages: [...kept, ...question, answer], keys };
}

function standIn(pending: PendingAnswer, role: "user" | "assistant", content: string): Message {
  const status = role === "assistant" ? "pending" : null;
  return bareMessage({
    id: pendingRowKey(pending, role),
    sessionId: pending.sessionId ?? "",
    role,
    content,
    status,
  });
}
