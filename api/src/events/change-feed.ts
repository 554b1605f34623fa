/**
 * A change stream on one collection that keeps going: after a dropped stream (the store restarted, a network
 * hiccup) it opens again from the last resume token; when the store can no longer resume from it (286
 * ChangeStreamHistoryLost, or any other refusal of the resume point) it starts afresh and, once the new stream
 * is open, calls onResync, so the caller rebuilds what it caches from the store (a change made in between is
 * seen by the rebuild, the stream, or both; never by neither).
 *
 * Works on MongoDB replica sets and on the embedded store (a single-member replica set, hello.setName).
 */
import mongoose, { type mongo } from "mongoose";
import { logger } from "../logger";

/** ChangeStreamHistoryLost, ChangeStreamFatalError: the resume point is gone */
const HISTORY_LOST_CODES = new Set([286, 280]);
/** wait before opening again after an error */
export const CHANGE_FEED_RETRY_MS = 300;
/** how long one getMore waits for a change (awaitData) */
const AWAIT_MS = 1_000;

export interface ChangeFeedOptions {
  collection: string;
  /** stages after $changeStream ($match, $project) */
  pipeline?: mongo.Document[];
  fullDocument?: "updateLookup";
  /** each change, in commit order (awaited: the next change waits for it) */
  onChange(change: mongo.ChangeStreamDocument): void | Promise<void>;
  /** changes were missed (the stream could not be resumed): rebuild what is cached */
  onResync(reason: string): void;
}

export interface ChangeFeed {
  /** resolves once the stream is open (changes committed from then on are seen) */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** true when the connected store can watch() (a replica set: hello names its set). */
export async function storeHasChangeStreams(): Promise<boolean> {
  const db = mongoose.connection.db;
  if (!db) return false;
  try {
    const hello = await db.admin().command({ hello: 1 });
    return typeof hello.setName === "string" && hello.setName.length > 0;
  } catch {
    return false;
  }
}

function isHistoryLost(err: unknown): boolean {
  const e = err as { code?: number; hasErrorLabel?: (label: string) => boolean };
  return (
    (typeof e.code === "number" && HISTORY_LOST_CODES.has(e.code)) ||
    e.hasErrorLabel?.("NonResumableChangeStreamError") === true
  );
}

export function openChangeFeed(opts: ChangeFeedOptions): ChangeFeed {
  let token: unknown;
  let stream: mongo.ChangeStream | null = null;
  let closed = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  /** the history was lost: rebuild once the new stream is open, so every change is in one or the other */
  let resyncReason: string | null = null;

  const consume = async (s: mongo.ChangeStream): Promise<void> => {
    // tryNext() runs the aggregate: from then on, committed changes are seen. Its answer sets the first resume
    // token: ready then, not after the getMore that follows an empty first batch and waits up to AWAIT_MS
    // (a start would otherwise wait a second for nothing)
    s.once("resumeTokenChanged", markReady);
    let change = await s.tryNext();
    markReady();
    if (resyncReason) {
      const reason = resyncReason;
      resyncReason = null;
      opts.onResync(reason);
    }
    for (;;) {
      if (change) {
        await opts.onChange(change);
      }
      token = s.resumeToken ?? token;
      if (closed) return;
      change = await s.next();
    }
  };

  const loop = async (): Promise<void> => {
    while (!closed) {
      try {
        const db = mongoose.connection.db;
        if (!db) throw new Error("not connected");
        stream = db.collection(opts.collection).watch(opts.pipeline ?? [], {
          ...(token ? { resumeAfter: token } : {}),
          ...(opts.fullDocument ? { fullDocument: opts.fullDocument } : {}),
          maxAwaitTimeMS: AWAIT_MS,
        });
        await consume(stream);
      } catch (err) {
        if (closed) return;
        const lost = Boolean(token) && isHistoryLost(err);
        await stream?.close().catch(() => undefined);
        stream = null;
        if (lost) {
          // open afresh at once, then rebuild (consume): a change made before the new stream opened would
          // otherwise be neither in the rebuild nor in the stream
          logger.warn({ err, collection: opts.collection }, "change stream could not resume; resyncing");
          token = undefined;
          resyncReason = "history-lost";
        } else {
          logger.warn({ err, collection: opts.collection }, "change stream dropped; reopening");
          await new Promise((r) => setTimeout(r, CHANGE_FEED_RETRY_MS));
        }
      }
    }
  };
  const running = loop();

  return {
    ready,
    async close() {
      closed = true;
      markReady();
      await stream?.close().catch(() => undefined);
      await running;
    },
  };
}
