/** What the chat service publishes on the CHAT_MESSAGE_EVENT topic (one topic; subscribers filter by session). */
import { FixedBuffer, Repeater } from "@graphql-yoga/subscription";
import type { ChatMessageView } from "./chat.presenter";

export type ChatMessageEventType = "CREATED" | "DELTA" | "COMPLETED" | "STOPPED" | "ERROR";

export interface ChatMessageEventPayload {
  type: ChatMessageEventType;
  sessionId: string;
  /** the owner: subscribers are also filtered by it */
  userId: string;
  messageId: string;
  /** DELTA: the text increment (the concatenation of a message's deltas is its content) */
  delta: string | null;
  /** CREATED / COMPLETED / STOPPED / ERROR: the message as stored */
  message: ChatMessageView | null;
}

type Listener = (event: ChatMessageEventPayload) => void;

/** events queued per subscriber before a slow client starts missing them (an answer is ~1 event per token) */
const EVENT_BUFFER = 4_096;

/**
 * Per-session delivery of chat events in this process. The app pub/sub hands every event to every subscriber
 * of a topic, each through its own queue, and the subscriber then filters: with N open chats every token would
 * be queued N times. The hub holds ONE subscription to the topic and passes each event only to the listeners of
 * its session (and owner). Events still travel through the app pub/sub, so a shared one spans processes.
 */
export class SessionEventHub {
  private readonly bySession = new Map<string, Set<Listener>>();
  private source: AsyncIterator<ChatMessageEventPayload> | null = null;

  constructor(private readonly subscribeTopic: () => AsyncIterable<ChatMessageEventPayload>) {}

  /** The events of one session for its owner, until the consumer stops (return()). */
  events(sessionId: string, userId: string): AsyncIterableIterator<ChatMessageEventPayload> {
    this.ensureSource();
    return new Repeater<ChatMessageEventPayload>(async (push, stop) => {
      const listener: Listener = (e) => {
        if (e.userId !== userId) return;
        try {
          void push(e).catch(() => undefined);
        } catch {
          // a client this far behind (thousands of events) misses them; the stored message stays complete
        }
      };
      let set = this.bySession.get(sessionId);
      if (!set) {
        set = new Set();
        this.bySession.set(sessionId, set);
      }
      set.add(listener);
      await stop;
      set.delete(listener);
      if (set.size === 0) this.bySession.delete(sessionId);
    }, new FixedBuffer(EVENT_BUFFER));
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
        if (listeners) for (const l of listeners) l(e.value);
      }
    })().catch(() => undefined);
  }
}
