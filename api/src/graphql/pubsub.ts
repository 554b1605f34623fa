/**
 * Typed in-process pub/sub for subscriptions. Services publish on named topics; resolvers declare
 * @Subscription({ topics }). Behind the AppPubSub interface so a shared (Redis, Mongo) one can replace it.
 */
import { createPubSub } from "@graphql-yoga/subscription";
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

function inProcessPubSub(): AppPubSub {
  const inner = createPubSub<{ [K in Topic]: [PubSubTopics[K]] }>();
  return {
    publish: (topic: string, ...args: unknown[]) =>
      (inner.publish as (t: string, ...a: unknown[]) => void)(topic, ...args),
    subscribe: (topic: string) => (inner.subscribe as (t: string) => AsyncIterable<never>)(topic),
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
