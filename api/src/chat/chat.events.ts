/** The chat's topic on the event bus: CHAT_MESSAGE_EVENT (one topic; subscribers filter by session). */
import { Channel } from "../events/channel";
import type { ChatMessageView } from "./chat.presenter";

declare module "../events/bus" {
  interface Topics {
    /** chat answer events (created, each delta, completed/stopped/error, updated); subscribers filter by session */
    CHAT_MESSAGE_EVENT: ChatMessageEventPayload;
  }
}

/** UPDATED: a finished message changed afterwards (its model-written follow-ups arrived) */
export type ChatMessageEventType = "CREATED" | "DELTA" | "COMPLETED" | "STOPPED" | "ERROR" | "UPDATED";

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
}

/** events queued per subscriber before a slow client starts missing them (an answer is ~1 event per token) */
const EVENT_BUFFER = 4_096;

interface Listener {
  userId: string;
  channel: Channel<ChatMessageEventPayload>;
}

/**
 * Per-session delivery of chat events in this process. The event bus hands every event to every subscriber
 * of a topic, each through its own queue, and the subscriber then filters: with N open chats every token would
 * be queued N times. The hub holds ONE subscription to the topic and passes each event only to the listeners of
 * its session (and owner). Events still travel through the bus, so a shared one spans processes.
 */
export class SessionEventHub {
  private readonly bySession = new Map<string, Set<Listener>>();
  private source: AsyncIterator<ChatMessageEventPayload> | null = null;

  constructor(private readonly subscribeTopic: () => AsyncIterable<ChatMessageEventPayload>) {}

  /** The events of one session for its owner, until the consumer stops (return()). */
  events(sessionId: string, userId: string): AsyncIterableIterator<ChatMessageEventPayload> {
    this.ensureSource();
    let set = this.bySession.get(sessionId);
    if (!set) {
      set = new Set();
      this.bySession.set(sessionId, set);
    }
    const own = set;
    // a client this far behind (thousands of events) misses them; the stored message stays complete
    const listener: Listener = {
      userId,
      channel: new Channel(EVENT_BUFFER, () => {
        own.delete(listener);
        if (own.size === 0 && this.bySession.get(sessionId) === own) this.bySession.delete(sessionId);
      }),
    };
    own.add(listener);
    return listener.channel;
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
        if (listeners) for (const l of listeners) if (l.userId === e.value.userId) l.channel.push(e.value);
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
