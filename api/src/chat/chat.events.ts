/** The chat's topic on the event bus: CHAT_MESSAGE_EVENT (one topic; subscribers filter by session). */
import { Channel, type Pace } from "../events/channel";
import type { Scopes } from "../events/store-bus";
import { StreamingAnswers } from "./chat.pace";
import type { ChatMessageView } from "./chat.presenter";

declare module "../events/bus" {
  interface Topics {
    /** chat answer events (created, each delta, completed/stopped/error, updated); subscribers filter by session */
    CHAT_MESSAGE_EVENT: ChatMessageEventPayload;
  }
}

/**
 * UPDATED: a finished message changed afterwards (its model-written follow-ups arrived); TITLED: the session got
 * the model's title for it (written in the background, often after the first answer ended)
 */
export type ChatMessageEventType =
  | "CREATED"
  | "DELTA"
  | "COMPLETED"
  | "STOPPED"
  | "ERROR"
  | "UPDATED"
  | "TITLED";

export interface ChatMessageEventPayload {
  type: ChatMessageEventType;
  sessionId: string;
  /** the owner: subscribers are also filtered by it */
  userId: string;
  messageId: string;
  /** DELTA: the text increment (the concatenation of a message's deltas is its content) */
  delta: string | null;
  /** CREATED / COMPLETED / STOPPED / ERROR / UPDATED: the message as stored */
  message: ChatMessageView | null;
  /**
   * CREATED: the parent of the answer's question (null: the question is a session's first), so a client that
   * does not list the question can tell where it hangs (a new send's, an edit's, or one on a branch not shown)
   */
  questionParentId?: string | null;
  /** TITLED: the session's new title (`messageId` is the question that named it) */
  title?: string;
}

/**
 * The store bus writes a session's answer events for other processes only while one of them has a subscriber for
 * that session (events/listeners.ts; the catch-up of a new one: chat.catch-up.ts).
 */
export const CHAT_EVENT_SCOPES: Scopes = { CHAT_MESSAGE_EVENT: (e) => e.sessionId };

/** events queued per subscriber before a slow client starts missing them (an answer is ~1 event per token) */
const EVENT_BUFFER = 4_096;

interface Listener {
  userId: string;
  channel: Channel<ChatMessageEventPayload>;
}

/** at most this many characters in one merged DELTA (a subscriber behind gets its backlog in pieces) */
export const MERGED_DELTA_MAX = 4_096;

/**
 * Two DELTAs of the same message waiting for a subscriber, as one (text concatenated, in order); null when
 * they do not merge. A new object: the queued one may be shared with other subscribers.
 */
export function mergeDeltas(
  queued: ChatMessageEventPayload,
  next: ChatMessageEventPayload,
): ChatMessageEventPayload | null {
  if (queued.type !== "DELTA" || next.type !== "DELTA" || queued.messageId !== next.messageId) return null;
  const text = (queued.delta ?? "") + (next.delta ?? "");
  if (text.length > MERGED_DELTA_MAX) return null;
  return { ...queued, delta: text };
}

/**
 * Per-session delivery of chat events in this process. The event bus hands every event to every subscriber
 * of a topic, each through its own queue, and the subscriber then filters: with N open chats every token would
 * be queued N times. The hub holds ONE subscription to the topic and passes each event only to the listeners of
 * its session (and owner). Events still travel through the bus, so a shared one spans processes.
 * A subscriber whose socket is behind gets the DELTAs waiting for it merged (mergeDeltas): fewer frames, the
 * same text in the same order; one that keeps up gets a message's DELTAs as published, at most one per the
 * DELTA pace (chat.pace.ts: 16 ms when few answers stream here, up to 100 ms when many do; the ones between
 * merged, the first at once).
 */
export class SessionEventHub {
  private readonly bySession = new Map<string, Set<Listener>>();
  /** the answers streaming to listeners here: the DELTA pace follows their number */
  private readonly streaming = new StreamingAnswers();
  private readonly pace: Pace<ChatMessageEventPayload> = {
    ms: () => this.streaming.paceMs(),
    key: (e) => (e.type === "DELTA" ? e.messageId : null),
  };
  /** a session's listeners → the end of its announcement to other processes */
  private readonly releases = new Map<Set<Listener>, () => void>();
  private source: AsyncIterator<ChatMessageEventPayload> | null = null;

  constructor(
    private readonly subscribeTopic: () => AsyncIterable<ChatMessageEventPayload>,
    /** a session's first listener here until its last one leaves (a bus over several processes: EventBus.listen) */
    private readonly listenTo?: (sessionId: string) => () => void,
  ) {}

  /** The events of one session for its owner, until the consumer stops (return()). */
  events(sessionId: string, userId: string): AsyncIterableIterator<ChatMessageEventPayload> {
    this.ensureSource();
    let set = this.bySession.get(sessionId);
    if (!set) {
      set = new Set();
      this.bySession.set(sessionId, set);
      const release = this.listenTo?.(sessionId);
      if (release) this.releases.set(set, release);
    }
    const own = set;
    // a client this far behind (thousands of events) misses them; the stored message stays complete
    const listener: Listener = {
      userId,
      channel: new Channel(
        EVENT_BUFFER,
        () => {
          own.delete(listener);
          if (own.size > 0) return;
          if (this.bySession.get(sessionId) === own) this.bySession.delete(sessionId);
          this.releases.get(own)?.();
          this.releases.delete(own);
        },
        mergeDeltas,
        this.pace,
      ),
    };
    own.add(listener);
    return listener.channel;
  }

  /** Answers streaming to listeners here now (for tests). */
  streamingCount(): number {
    return this.streaming.count();
  }

  /** Listeners now (for tests). */
  listenerCount(): number {
    let n = 0;
    for (const set of this.bySession.values()) n += set.size;
    return n;
  }

  async close(): Promise<void> {
    const source = this.source;
    this.source = null;
    await source?.return?.();
  }

  private ensureSource(): void {
    if (this.source) return;
    const source = this.subscribeTopic()[Symbol.asyncIterator]();
    this.source = source;
    void (async () => {
      for (let e = await source.next(); !e.done; e = await source.next()) {
        const listeners = this.bySession.get(e.value.sessionId);
        if (!listeners) continue;
        // a TITLED event names the session, not an answer: the DELTA pace counts answers
        if (e.value.type !== "TITLED") this.streaming.note(e.value.messageId, e.value.type);
        for (const l of listeners) if (l.userId === e.value.userId) l.channel.push(e.value);
      }
    })().catch(() => undefined);
  }
}

/**
 * The publisher of one answer's events when its message is still being written (a send asks the model beside
 * the insert): events are held in order until `stored` resolves, then published; when it fails they are
 * dropped, now and later (nobody hears of a message that is not stored), and `onFailed` runs. Without `stored`
 * events go out at once.
 */
export function publishWhenStored(
  stored: Promise<void> | undefined,
  onFailed: () => void,
): (event: () => void) => void {
  if (!stored) return (event) => event();
  let state: "holding" | "open" | "dropped" = "holding";
  const held: Array<() => void> = [];
  stored.then(
    () => {
      state = "open";
      for (const event of held.splice(0)) event();
    },
    () => {
      state = "dropped";
      held.length = 0;
      onFailed();
    },
  );
  return (event) => {
    if (state === "open") event();
    else if (state === "holding") held.push(event);
  };
}

/**
 * One answer's text increments, published at most once per turn of the event loop: what `add` receives before
 * the current turn's work is done (several tokens come out of one network read when the process is busy) goes
 * to `publish` as one increment, so the bus, the events outbox and every subscriber's socket handle one event
 * instead of one per token. Tokens that arrive apart (a quiet stream) are still published one by one. `flush`
 * publishes what is waiting now (before the answer's outcome event).
 */
export function deltaBatcher(publish: (delta: string) => void): { add(delta: string): void; flush(): void } {
  let unsent = "";
  let queued = false;
  const flush = () => {
    queued = false;
    if (!unsent) return;
    const delta = unsent;
    unsent = "";
    publish(delta);
  };
  return {
    add(delta) {
      if (!delta) return;
      unsent += delta;
      if (queued) return;
      queued = true;
      process.nextTick(flush);
    },
    flush,
  };
}
