import { useApolloClient } from "@apollo/client/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { toAppError } from "../../../lib/errors";
import { CHAT_POLL_MS, EARLIER_PAGE_SIZE } from "../constants";
import { ChatMessageEventsSubscription, MessagesQuery } from "../graphql/chat.operations";
import {
  addStarted,
  applyEvent,
  hasEarlier,
  isInProgress,
  type Message,
  mergePolled,
  prependEarlier,
  rememberParents,
  upsertMessage,
} from "../lib/messages";

/** a performance mark set when a session's messages arrived (before they render) */
export const LOADED_MARK = "chat:messages-loaded";

export interface ChatMessagesState {
  messages: Message[];
  loading: boolean;
  error: boolean;
  /** an answer of this session is pending or streaming */
  inProgress: boolean;
  /** adds or replaces messages the mutations returned */
  upsert: (...messages: Message[]) => void;
  /** a new answer was started (send): its question and answer join the list (see addStarted) */
  addStarted: (...messages: Message[]) => void;
  /** the shown branch changed: the messages from `fromId` on (all when null) become `messages` */
  replaceFrom: (fromId: string | null, ...messages: Message[]) => void;
  reload: () => void;
  /** the list starts after the session's first message: an earlier page can be loaded */
  hasEarlier: boolean;
  /** the earlier page is being loaded */
  loadingEarlier: boolean;
  /** loads the page before the first message and puts it before the list (once at a time) */
  loadEarlier: () => void;
  /** the last live event that finished an answer (for the aria-live announcement), with a counter */
  finished: { message: Message; seq: number } | null;
}

/**
 * The messages of one session: its newest page loaded once (earlier pages on demand: loadEarlier), then kept
 * current by the `chatMessageEvents` subscription (each DELTA appends a token). While an answer is in progress and
 * no live event came for CHAT_POLL_MS (the websocket cannot connect, or dropped), the list is polled every
 * CHAT_POLL_MS instead (spec §4/§9). `onTitled` runs when the session got the model's title (a TITLED event,
 * which may come after the first answer ended): the session list reads it.
 */
export function useChatMessages(
  sessionId: string | null,
  { onTitled }: { onTitled?: () => void } = {},
): ChatMessagesState {
  const client = useApolloClient();
  const titled = useRef(onTitled);
  titled.current = onTitled;
  const [messages, setListed] = useState<Message[]>([]);
  // where every message this session listed hangs, also after it left the list (another branch shown): a
  // reconnect's catch-up of an answer deep in a branch not shown stays out (applyEvent)
  const ancestry = useRef(new Map<string, string | null>());
  /** a change of the list that is not a token: what was listed is remembered first */
  const setMessages = useCallback((change: Message[] | ((local: Message[]) => Message[])) => {
    setListed((local) => {
      rememberParents(ancestry.current, local);
      return typeof change === "function" ? change(local) : change;
    });
  }, []);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(false);
  const [finished, setFinished] = useState<ChatMessagesState["finished"]>(null);
  const [reloads, setReloads] = useState(0);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const earlierInFlight = useRef(false);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const lastEventAt = useRef(0);
  const current = useRef(sessionId);
  current.current = sessionId;

  const fetchMessages = useCallback(
    async (id: string, before?: string, limit?: number) => {
      const result = await client.query({
        query: MessagesQuery,
        variables: { sessionId: id, before, limit },
        fetchPolicy: "no-cache",
      });
      return result.data?.messages ?? [];
    },
    [client],
  );

  const onFinished = useCallback((message: Message) => {
    setFinished((prev) => ({ message, seq: (prev?.seq ?? 0) + 1 }));
  }, []);

  // load the session's messages
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads is the explicit reload trigger
  useEffect(() => {
    setListed([]);
    ancestry.current = new Map();
    setError(false);
    earlierInFlight.current = false;
    setLoadingEarlier(false);
    if (!sessionId) {
      setLoading(false);
      return;
    }
    let cancelled = false;
    setLoading(true);
    fetchMessages(sessionId).then(
      (list) => {
        if (cancelled) return;
        // bench:web measures the first render of a session from this mark to the newest message painted
        performance.mark(LOADED_MARK);
        setMessages((local) => mergeLoaded(local, list));
        setLoading(false);
      },
      () => {
        if (cancelled) return;
        setError(true);
        setLoading(false);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [sessionId, fetchMessages, reloads, setMessages]);

  // follow live events
  useEffect(() => {
    if (!sessionId) return;
    const subscription = client
      .subscribe({ query: ChatMessageEventsSubscription, variables: { sessionId } })
      .subscribe({
        next: (result) => {
          const event = result.data?.chatMessageEvents;
          if (!event || current.current !== sessionId) return;
          lastEventAt.current = Date.now();
          if (event.type === "TITLED") titled.current?.();
          else if (event.type === "DELTA") setListed((list) => applyEvent(list, event));
          else {
            if (event.message) rememberParents(ancestry.current, [event.message]);
            setMessages((list) => applyEvent(list, event, ancestry.current));
          }
          // the outcome is announced once: not when an answer starts, streams or is updated afterwards
          if (event.message && ["COMPLETED", "STOPPED", "ERROR"].includes(event.type))
            onFinished(event.message);
        },
        // polling takes over (below)
        error: () => undefined,
      });
    return () => subscription.unsubscribe();
  }, [client, sessionId, onFinished, setMessages]);

  // poll while an answer is in progress and the live events are quiet
  const inProgress = messages.some(isInProgress);
  useEffect(() => {
    if (!sessionId || !inProgress) return;
    const timer = setInterval(() => {
      if (Date.now() - lastEventAt.current < CHAT_POLL_MS) return;
      fetchMessages(sessionId).then(
        (list) => {
          if (current.current !== sessionId) return;
          setMessages((local) => {
            const merged = mergePolled(local, list);
            for (const m of merged) {
              const before = local.find((l) => l.id === m.id);
              if (before && isInProgress(before) && !isInProgress(m)) onFinished(m);
            }
            return merged;
          });
        },
        () => undefined,
      );
    }, CHAT_POLL_MS);
    return () => clearInterval(timer);
  }, [sessionId, inProgress, fetchMessages, onFinished, setMessages]);

  const upsert = useCallback(
    (...list: Message[]) => {
      setMessages((local) => list.reduce(upsertMessage, local));
    },
    [setMessages],
  );
  const addStartedMessages = useCallback(
    (...list: Message[]) => {
      setMessages((local) => addStarted(local, undefined, ...list));
    },
    [setMessages],
  );
  // a live copy of an answer the mutation started (its events can come first) keeps what they brought
  const replaceFrom = useCallback(
    (fromId: string | null, ...list: Message[]) => {
      setMessages((local) => addStarted(local, fromId, ...list));
    },
    [setMessages],
  );
  const reload = useCallback(() => setReloads((n) => n + 1), []);

  // the page before the first message; a page that no longer fits (another branch shown meanwhile) is dropped,
  // and a refused one (NOT_FOUND: that message is no longer on the shown branch) reloads the session's newest
  // page; after another failure the button is there to try again
  const loadEarlier = useCallback(() => {
    const first = messagesRef.current[0];
    if (!sessionId || !first || !hasEarlier(messagesRef.current) || earlierInFlight.current) return;
    earlierInFlight.current = true;
    setLoadingEarlier(true);
    const done = () => {
      if (current.current !== sessionId) return false;
      earlierInFlight.current = false;
      setLoadingEarlier(false);
      return true;
    };
    fetchMessages(sessionId, first.id, EARLIER_PAGE_SIZE).then(
      (earlier) => {
        if (done()) setMessages((local) => prependEarlier(local, earlier) ?? local);
      },
      (error: unknown) => {
        if (done() && toAppError(error).code === "NOT_FOUND") reload();
      },
    );
  }, [sessionId, fetchMessages, reload, setMessages]);

  return {
    messages,
    loading,
    error,
    inProgress,
    upsert,
    addStarted: addStartedMessages,
    replaceFrom,
    reload,
    hasEarlier: hasEarlier(messages),
    loadingEarlier,
    loadEarlier,
    finished,
  };
}

/** The loaded list, plus any message that arrived live (or from a mutation) while it was loading. */
function mergeLoaded(local: readonly Message[], loaded: readonly Message[]): Message[] {
  let merged = mergePolled(local, loaded);
  const ids = new Set(loaded.map((m) => m.id));
  for (const m of local) if (!ids.has(m.id)) merged = upsertMessage(merged, m);
  return merged;
}
