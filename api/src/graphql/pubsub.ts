/**
 * Typed in-process pub/sub for subscriptions. Services publish on named topics; resolvers declare
 * @Subscription({ topics }). Behind the AppPubSub interface so a shared (Redis, Mongo) one can replace it.
 */
import type { PubSub } from "type-graphql";
import type { ChatMessageEventPayload } from "../chat/chat.events";

/** Topic → payload. Feature modules add their topics here. */
export interface PubSubTopics {
  ACTIVITY_LOGGED: {
    id: string;
    action: string;
    description: string;
    userEmail: string | null;
    timestamp: Date;
    metadata: Record<string, unknown>;
  };
  PREFERENCES_CHANGED: {
    userId: string;
    language: string;
    theme: string;
    notifications: boolean;
    updatedAt: Date | null;
  };
  /** chat answer events (created, each delta, completed/stopped/error); subscribers filter by session */
  CHAT_MESSAGE_EVENT: ChatMessageEventPayload;
}

export type Topic = keyof PubSubTopics;

export interface AppPubSub extends PubSub {
  publish<T extends Topic>(topic: T, payload: PubSubTopics[T]): void;
  subscribe<T extends Topic>(topic: T): AsyncIterable<PubSubTopics[T]>;
}

/**
 * A bounded async queue: what one subscriber has not consumed yet. `push` never blocks the publisher; beyond
 * `limit` queued events a subscriber this far behind misses the newest ones (it is not keeping up anyway).
 * Deliberately small: an answer streams about one event per token to every open chat, so this sits on the hot
 * path (a Repeater per hop cost several promises and closures per event).
 */
export class Channel<T> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;

  constructor(
    private readonly limit: number,
    private readonly onClose: () => void = () => undefined,
  ) {}

  /** Queue (or hand over) one value; false when it was dropped (closed, or `limit` values already queued). */
  push(value: T): boolean {
    if (this.closed) return false;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = null;
      waiting({ value, done: false });
      return true;
    }
    if (this.items.length - this.head >= this.limit) return false;
    this.items.push(value);
    return true;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T;
      this.items[this.head++] = undefined as T;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err: unknown): Promise<IteratorResult<T>> {
    this.close();
    return Promise.reject(err);
  }

  /** Stop: queued values are dropped, a waiting next() ends, onClose runs once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.items = [];
    this.head = 0;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.({ value: undefined, done: true });
    this.onClose();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** events queued per subscriber of the in-process pub/sub before it starts missing them */
const SUBSCRIBER_BUFFER = 10_000;

function inProcessPubSub(): AppPubSub {
  const subscribers = new Map<string, Set<Channel<unknown>>>();
  return {
    publish: (topic: string, payload: unknown) => {
      const set = subscribers.get(topic);
      if (set) for (const channel of set) channel.push(payload);
    },
    subscribe: (topic: string) => {
      let set = subscribers.get(topic);
      if (!set) {
        set = new Set();
        subscribers.set(topic, set);
      }
      const own = set;
      const channel: Channel<unknown> = new Channel(SUBSCRIBER_BUFFER, () => {
        own.delete(channel);
        if (own.size === 0 && subscribers.get(topic) === own) subscribers.delete(topic);
      });
      own.add(channel);
      return channel;
    },
  } as AppPubSub;
}

let current: AppPubSub = inProcessPubSub();

export function getPubSub(): AppPubSub {
  return current;
}

/** Replace the pub/sub (before the schema is built). */
export function setPubSub(pubSub: AppPubSub): void {
  current = pubSub;
}

/** Publish on a topic (a no-op when nobody listens). */
export function publish<T extends Topic>(topic: T, payload: PubSubTopics[T]): void {
  current.publish(topic, payload);
}
