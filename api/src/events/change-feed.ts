/**
 * A change stream on one collection that keeps going: after a dropped stream (the store restarted, a network
 * hiccup) it opens again from the last resume token; when the store can no longer resume from it (286
 * ChangeStreamHistoryLost, or any other refusal of the resume point) it starts afresh and, once the new stream
 * is open, calls onResync, so the caller rebuilds what it caches from the store (a change made in between is
 * seen by the rebuild, the stream, or both; never by neither).
 *
 * Watchdog: every wait on the store (one getMore waits at most AWAIT_MS for a change) must end, with changes,
 * an empty batch or an error, within CHANGE_FEED_STALL_MS. One that does not means the client is stuck on a store
 * that crashed and came back (see db/client-swap.ts): the stream is abandoned, the database client replaced
 * (unless the stall timer itself fired late: this process was busy, not the store silent), and the stream opened again from its resume token (or afresh with a resync when the history is gone), so a
 * process is never left silently deaf to the other processes.
 *
 * Works on MongoDB replica sets and on the embedded store (a single-member replica set, hello.setName).
 */
import mongoose, { type mongo } from "mongoose";
import { replaceDatabaseClient } from "../db/client-swap";
import { logger } from "../logger";

/** ChangeStreamHistoryLost, ChangeStreamFatalError: the resume point is gone */
const HISTORY_LOST_CODES = new Set([286, 280]);
/** wait before opening again after an error */
export const CHANGE_FEED_RETRY_MS = 300;
/** how long one getMore waits for a change (awaitData) */
const AWAIT_MS = 1_000;
/**
 * A wait on the store with no outcome for this long is stuck (the driver's own server selection gives up after
 * 5 s, a getMore answers within AWAIT_MS): the stream is reopened on a new client.
 */
export const CHANGE_FEED_STALL_MS = 10_000;

class StalledError extends Error {
  constructor(
    collection: string,
    ms: number,
    /** how late the timer fired: the event loop was held that long */
    readonly lateMs: number,
  ) {
    super(`change stream on ${collection}: no answer from the store in ${ms} ms`);
  }
}

/** a stall timer that fires this much late says this process was busy, not that the store was silent */
const LATE_TIMER_MS = 1_000;

/** p, or a StalledError after ms (p is then abandoned: its late outcome is ignored). */
function withinStall<T>(p: Promise<T>, collection: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    const due = Date.now() + ms;
    timer = setTimeout(() => reject(new StalledError(collection, ms, Date.now() - due)), ms);
  });
  p.catch(() => undefined);
  return Promise.race([p, stalled]).finally(() => clearTimeout(timer));
}

export interface ChangeFeedOptions {
  /** the collection watched (with `database`: only a name for the logs) */
  collection: string;
  /** watch every collection of the database instead (filter with `pipeline` on ns.coll) */
  database?: boolean;
  /** default CHANGE_FEED_STALL_MS (tests) */
  stallMs?: number;
  /** how long one getMore waits for a change (default AWAIT_MS); shorter keeps caughtUpTo() closer to now */
  awaitMs?: number;
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
  /**
   * Every change committed before this moment (Date.now() of this process) has been handed to onChange: the
   * start of the last wait on the store that came back with nothing new. 0 until then; it stops moving while
   * the stream is stalled, dropped or reopening.
   */
  caughtUpTo(): number;
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

  const stallMs = opts.stallMs ?? CHANGE_FEED_STALL_MS;
  let caughtUp = 0;
  /**
   * One driver call (the aggregate or a getMore): an outcome within stallMs, or StalledError. Nothing new means
   * every change committed before the call was sent has been handed out (they come in commit order, each one
   * handled before the next call).
   */
  const step = async (s: mongo.ChangeStream) => {
    const sentAt = Date.now();
    const change = await withinStall(s.tryNext(), opts.collection, stallMs);
    if (change === null) caughtUp = sentAt;
    return change;
  };

  const consume = async (s: mongo.ChangeStream): Promise<void> => {
    // the first step runs the aggregate: from then on, committed changes are seen. Its answer sets the first
    // resume token: ready then, not after the getMore that follows an empty first batch and waits up to AWAIT_MS
    // (a start would otherwise wait a second for nothing)
    s.once("resumeTokenChanged", markReady);
    let change = await step(s);
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
      // tryNext, not next: each getMore (at most AWAIT_MS) comes back here, so a silent store is noticed
      change = await step(s);
    }
  };

  const loop = async (): Promise<void> => {
    while (!closed) {
      try {
        const db = mongoose.connection.db;
        if (!db) throw new Error("not connected");
        const watchOpts = {
          ...(token ? { resumeAfter: token } : {}),
          ...(opts.fullDocument ? { fullDocument: opts.fullDocument } : {}),
          maxAwaitTimeMS: opts.awaitMs ?? AWAIT_MS,
        };
        stream = opts.database
          ? db.watch(opts.pipeline ?? [], watchOpts)
          : db.collection(opts.collection).watch(opts.pipeline ?? [], watchOpts);
        await consume(stream);
      } catch (err) {
        if (closed) return;
        const lost = Boolean(token) && isHistoryLost(err);
        const stuck = err instanceof StalledError ? err : null;
        // a stuck stream's close would wait on the same dead connection
        if (stuck) stream?.close().catch(() => undefined);
        else await stream?.close().catch(() => undefined);
        stream = null;
        if (stuck && stuck.lateMs > LATE_TIMER_MS) {
          // this process was busy (its event loop held past the stall time): not the store's fault
          logger.warn({ err, collection: opts.collection }, "change stream checked late; reopening");
        } else if (stuck) {
          logger.error(
            { err, collection: opts.collection },
            "change stream stuck; replacing the database client",
          );
          await replaceDatabaseClient(() => closed);
        } else if (lost) {
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
    caughtUpTo: () => caughtUp,
    async close() {
      closed = true;
      markReady();
      // a close on a stuck client would wait on its dead connection: shutdown does not wait longer than a stall
      if (stream) await withinStall(stream.close(), opts.collection, stallMs).catch(() => undefined);
      await running;
    },
  };
}
