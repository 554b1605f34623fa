import { useCallback, useMemo, useRef, useState } from "react";
import type { Message } from "../lib/messages";
import { type PendingAnswer, pendingRowKey, withPending } from "../lib/pending";

/** what starts an answer: a send, an edit, a regeneration or a retry (see PendingAnswer) */
export type PendingStart = Pick<PendingAnswer, "from" | "after" | "question" | "retry">;

export interface PendingAnswerState {
  /** the session's messages with the stand-ins of an answer being started (lib/pending.ts) */
  messages: Message[];
  /** an answer is being started in the shown session */
  waiting: boolean;
  /** a row's key: a stand-in's, kept by the message that replaced it */
  rowKey: (message: Message) => string;
  /** the message list's key: a session the send created keeps the list its stand-ins were shown in */
  listKey: string;
  /** an answer is being started (call before the mutation) */
  begin: (start: PendingStart) => PendingAnswer;
  /** the send created the session `id` (call where it is selected, in the same update) */
  created: (pending: PendingAnswer, id: string) => void;
  /** the mutation answered: `started` (its question and answer) replace the stand-ins; none on a failure */
  end: (pending: PendingAnswer, ...started: Message[]) => void;
}

/** The answer being started in the chat (spec §4), shown from the moment the user asks. */
export function usePendingAnswer(messages: readonly Message[], sessionId: string | null): PendingAnswerState {
  const [pending, setPending] = useState<PendingAnswer | null>(null);
  const [createdBySend, setCreatedBySend] = useState<string | null>(null);
  const seq = useRef(0);
  // the real messages that replaced a stand-in keep its row key (two per answer started on this page)
  const rowKeys = useRef(new Map<string, string>());
  const latest = useRef({ messages, sessionId });
  latest.current = { messages, sessionId };

  const begin = useCallback((start: PendingStart) => {
    seq.current += 1;
    const { messages: listed, sessionId: shownId } = latest.current;
    const next: PendingAnswer = {
      ...start,
      key: String(seq.current),
      sessionId: shownId,
      before: new Set(listed.map((m) => m.id)),
      // a regeneration's new answer replies to the same question as the answer it replaces
      parent: start.from && !start.retry ? listed.find((m) => m.id === start.from)?.parentId : undefined,
    };
    setPending(next);
    return next;
  }, []);
  const created = useCallback((p: PendingAnswer, id: string) => {
    setPending((current) => (current?.key === p.key ? { ...current, sessionId: id } : current));
    setCreatedBySend(id);
  }, []);
  const end = useCallback((p: PendingAnswer, ...started: Message[]) => {
    // a retried answer keeps its id, and so its row
    if (!p.retry) for (const m of started) rowKeys.current.set(m.id, pendingRowKey(p, m.role));
    setPending((current) => (current?.key === p.key ? null : current));
  }, []);

  const shown = pending && pending.sessionId === sessionId ? pending : null;
  const view = useMemo(() => withPending(messages, shown), [messages, shown]);
  const rowKey = useCallback(
    (m: Message) => view.keys.get(m.id) ?? rowKeys.current.get(m.id) ?? m.id,
    [view],
  );
  return {
    messages: view.messages,
    waiting: shown !== null,
    rowKey,
    listKey: sessionId !== null && sessionId === createdBySend ? "" : (sessionId ?? ""),
    begin,
    created,
    end,
  };
}
