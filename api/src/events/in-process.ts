/**
 * The event bus of one process: every subscriber of a topic gets each event through its own bounded queue.
 * A shared one (Redis, a Mongo change stream) can replace it behind the EventBus interface so events span
 * processes.
 */
import type { EventBus, Topic, Topics } from "./bus";
import { Channel } from "./channel";

/** events queued per subscriber before it starts missing them */
export const SUBSCRIBER_BUFFER = 10_000;

export function createInProcessBus(): EventBus {
  const subscribers = new Map<string, Set<Channel<unknown>>>();
  return {
    publish<T extends Topic>(topic: T, payload: Topics[T]): void {
      const set = subscribers.get(topic);
      if (set) for (const channel of set) channel.push(payload);
    },
    subscribe<T extends Topic>(topic: T): AsyncIterableIterator<Topics[T]> {
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
      return channel as Channel<Topics[T]>;
    },
  };
}
