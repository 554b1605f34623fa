/**
 * GraphQL subscriptions only subscribe to the app's event bus (api/src/events, created in services.ts and
 * reached through the context): `@Subscription({ subscribe: fromBus("TOPIC", keep) })`. Nothing publishes here.
 */
import type { PubSub, SubscribeResolverData } from "type-graphql";
import type { Topic, Topics } from "../events/bus";
import type { GraphQLContext } from "./context";

/**
 * The topic's events from the bus of the request's services, only those `keep` accepts (default: all). `scope`:
 * the topic is scoped on a bus over several processes (EventBus.listen): the subscriber listens to that scope
 * until it stops.
 */
export function fromBus<T extends Topic>(
  topic: T,
  keep?: ((payload: Topics[T], ctx: GraphQLContext) => boolean) | null,
  scope?: string,
): (data: SubscribeResolverData<unknown, unknown, GraphQLContext>) => AsyncIterable<Topics[T]> {
  return ({ context: ctx }) => {
    const events = ctx.services.events;
    const source = events.subscribe(topic);
    const release = scope === undefined ? undefined : events.listen?.(topic, scope);
    return filtered(source, keep ? (payload) => keep(payload, ctx) : null, release);
  };
}

/**
 * The values of `source` that `keep` accepts (all without it); `release` runs once when it stops. A plain
 * iterator rather than an async generator: return() must reach the source at once (an async generator waiting
 * for the next event would only end after it), or an unsubscribed client would stay subscribed to the bus until
 * its topic's next event.
 */
function filtered<T>(
  source: AsyncIterableIterator<T>,
  keep: ((value: T) => boolean) | null,
  release?: () => void,
): AsyncIterableIterator<T> {
  if (!keep && !release) return source;
  const stop = () => {
    release?.();
    release = undefined;
  };
  const it: AsyncIterableIterator<T> = {
    async next() {
      for (;;) {
        const r = await source.next();
        if (r.done) stop();
        if (r.done || !keep || keep(r.value)) return r;
      }
    },
    return: () => {
      stop();
      return source.return?.() ?? Promise.resolve({ value: undefined, done: true });
    },
    throw: (err: unknown) => {
      stop();
      return source.throw?.(err) ?? Promise.reject(err);
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

/**
 * What buildSchema gets as its `pubSub` (type-graphql insists on one when the schema has subscriptions). No
 * subscription uses topics, so it is never called: the events are on the bus.
 */
export const noTopicPubSub: PubSub = {
  publish: () => {
    throw new Error("publish on the event bus (services.events), not through GraphQL");
  },
  subscribe: () => {
    throw new Error("subscriptions use fromBus(topic), not topics");
  },
};
