/**
 * The app's event bus: services publish what happened, other features and the transports (GraphQL
 * subscriptions) subscribe. It sits outside the transports; the composition root (api/src/services.ts) creates
 * one and hands it to the services through their deps.
 *
 * Topics are typed. `Topics` is empty here: the feature that owns a topic declares it in its own
 * `<feature>.events.ts` by declaration merging:
 *
 *   declare module "../events/bus" {
 *     interface Topics { ARTICLE_SAVED: { articleId: string } }
 *   }
 *
 * Delivery is at most once and asynchronous: a subscriber that falls far behind misses events, and a publisher
 * never waits for its subscribers. Effects that must be done before an operation answers (a user's data gone
 * before "deleted") are explicit hooks wired in services.ts, not events.
 */

/** Topic → payload. Augmented by each feature's `<feature>.events.ts`. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the features
export interface Topics {}

export type Topic = keyof Topics;

export interface EventBus {
  /** Hand the payload to every current subscriber of the topic (a no-op when nobody listens). */
  publish<T extends Topic>(topic: T, payload: Topics[T]): void;
  /** The topic's events from now on, until the consumer stops iterating (return()). */
  subscribe<T extends Topic>(topic: T): AsyncIterableIterator<Topics[T]>;
  /**
   * (A bus over several processes, for its scoped topics: a chat session's answer events.) This process has a
   * subscriber for `scope` of `topic` until the returned release is called: other processes write that scope's
   * events for it only while some process listens. Absent on a bus that spans one process.
   */
  listen?(topic: Topic, scope: string): () => void;
  /**
   * (With listen.) `events(scope)` is asked, when another process starts listening to a scope of `topic` no
   * other process listened to, for what a subscriber there needs to catch up (the answer so far); those events
   * go to the other processes only, before any later one of the scope.
   */
  catchUp?<T extends Topic>(topic: T, events: (scope: string) => Topics[T][]): void;
}

/**
 * Run `handle` for each event of a topic until the returned stop() is called (a handler's error is ignored:
 * one subscriber must not stop the others).
 */
export function onEvent<T extends Topic>(
  bus: EventBus,
  topic: T,
  handle: (payload: Topics[T]) => void,
): () => Promise<void> {
  const events = bus.subscribe(topic);
  void (async () => {
    for (let e = await events.next(); !e.done; e = await events.next()) {
      try {
        handle(e.value);
      } catch {
        // a subscriber's bug stays its own
      }
    }
  })().catch(() => undefined);
  return async () => {
    await events.return?.();
  };
}
