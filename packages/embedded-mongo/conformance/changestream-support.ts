/** Helpers for the change stream conformance tests: open a stream for sure, take events without hanging. */
import type { ChangeStream, ChangeStreamDocument, Document } from "mongodb";

/** how long a test waits for events before it gives up (never hangs) */
export const EVENT_WAIT_MS = 5000;
/** maxAwaitTimeMS of test streams: each empty getMore returns after this */
export const AWAIT_MS = 100;

/** Sends the aggregate (and one empty getMore) so that later writes are after the stream's start. */
export async function opened<T extends ChangeStream>(stream: T): Promise<T> {
  const first = await stream.tryNext();
  if (first) throw new Error(`a new stream got an event it should not have: ${JSON.stringify(first)}`);
  return stream;
}

/** The next `n` events (fewer when they do not come within `ms`). */
export async function take<T extends Document = ChangeStreamDocument>(
  stream: ChangeStream<Document, T>,
  n: number,
  ms = EVENT_WAIT_MS,
): Promise<T[]> {
  const out: T[] = [];
  const end = Date.now() + ms;
  while (out.length < n && Date.now() < end && !stream.closed) {
    const event = await stream.tryNext();
    if (event) out.push(event);
  }
  return out;
}

/** The events the stream gets within `ms` (to check that nothing more comes). */
export async function drain<T extends Document = ChangeStreamDocument>(
  stream: ChangeStream<Document, T>,
  ms = 3 * AWAIT_MS,
): Promise<T[]> {
  return take(stream, Number.POSITIVE_INFINITY, ms);
}

/** The error a promise fails with (undefined when it succeeds). */
export async function failure(p: Promise<unknown>): Promise<(Error & { code?: number }) | undefined> {
  return p.then(
    () => undefined,
    (e: unknown) => e as Error & { code?: number },
  );
}
