/**
 * The event bus of several API processes over one store: `publish` delivers in this process at once (the fast
 * path, as the in-process bus) AND appends the event to the `events` collection; each process watches that
 * collection (a change stream) and delivers the events of OTHER processes to its own subscribers.
 *
 * - Batched: events published within FLUSH_MS go to the store as one document (an answer's tokens are not
 *   written one by one), in publishing order; the change stream hands them out in commit order. The first
 *   event after a quiet FLUSH_MS goes at once (with those published in the same turn): an answer's first token
 *   does not wait for a batch that nothing else fills.
 * - Bounded: the documents expire after EVENTS_TTL_S (a TTL index); at most OUTBOX_MAX events wait for a write
 *   (beyond, the newest are not sent to other processes: delivery is at most once, as in-process).
 * - Resume: a dropped stream resumes from its last token; when that is no longer possible, EVENTS_RESYNC is
 *   published in this process so caches rebuild from the store.
 */
import mongoose from "mongoose";
import { logger } from "../logger";
import type { EventBus, Topic, Topics } from "./bus";
import { type ChangeFeed, openChangeFeed } from "./change-feed";
import { createInProcessBus } from "./in-process";
import { PROCESS_ID } from "./origin";

declare module "./bus" {
  interface Topics {
    /** (this process only) events of other processes may have been missed: rebuild caches from the store */
    EVENTS_RESYNC: { reason: string };
  }
}

export const EVENTS_COLLECTION = "events";
/** events published within this many ms are written as one document */
export const FLUSH_MS = 50;
/** event documents are deleted (TTL index) this long after they were written */
export const EVENTS_TTL_S = 600;
/** events waiting for their write; beyond, other processes miss the newest */
export const OUTBOX_MAX = 10_000;
/** events per stored document */
const BATCH_MAX = 500;

export { PROCESS_ID };

interface StoredEvent {
  k: string;
  p: unknown;
}

interface EventsDoc {
  /** origin process */
  o: string;
  t: Date;
  e: StoredEvent[];
}

export interface StoreBus extends EventBus {
  /** resolves once this process receives other processes' events */
  ready: Promise<void>;
  /** events written to the store and received from it (for tests and benches) */
  stats(): { written: number; documents: number; received: number };
  /** write what is pending, stop watching */
  close(): Promise<void>;
}

export interface StoreBusOptions {
  flushMs?: number;
  /** this bus's origin (default PROCESS_ID; tests run two buses in one process) */
  origin?: string;
}

export function createStoreBus(opts: StoreBusOptions = {}): StoreBus {
  const flushMs = opts.flushMs ?? FLUSH_MS;
  const origin = opts.origin ?? PROCESS_ID;
  const local = createInProcessBus();
  const stats = { written: 0, documents: 0, received: 0 };
  let pending: StoredEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  let lastFlush = 0;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const collection = () => {
    const db = mongoose.connection.db;
    if (!db) throw new Error("not connected");
    return db.collection<EventsDoc>(EVENTS_COLLECTION);
  };

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    lastFlush = Date.now();
    const events = pending;
    pending = [];
    const docs: EventsDoc[] = [];
    for (let i = 0; i < events.length; i += BATCH_MAX) {
      docs.push({ o: origin, t: new Date(), e: events.slice(i, i + BATCH_MAX) });
    }
    writing = writing
      .then(async () => {
        await collection().insertMany(docs, { ordered: true });
        stats.written += events.length;
        stats.documents += docs.length;
      })
      .catch((err) => logger.warn({ err, events: events.length }, "events not written for other processes"));
  };

  const deliver = (doc: EventsDoc | undefined) => {
    if (!doc || doc.o === origin || !Array.isArray(doc.e)) return;
    for (const e of doc.e) {
      stats.received++;
      local.publish(e.k as Topic, e.p as Topics[Topic]);
    }
  };

  let feed: ChangeFeed | null = null;
  const ready = (async () => {
    await collection()
      .createIndex({ t: 1 }, { expireAfterSeconds: EVENTS_TTL_S })
      .catch((err) => logger.warn({ err }, "events TTL index not created"));
    if (closed) return;
    feed = openChangeFeed({
      collection: EVENTS_COLLECTION,
      pipeline: [{ $match: { operationType: "insert", "fullDocument.o": { $ne: origin } } }],
      onChange: (change) => {
        if (change.operationType === "insert") deliver(change.fullDocument as EventsDoc);
      },
      onResync: (reason) => local.publish("EVENTS_RESYNC", { reason }),
    });
    await feed.ready;
  })();

  return {
    ready,
    publish<T extends Topic>(topic: T, payload: Topics[T]): void {
      local.publish(topic, payload);
      if (closed || topic === "EVENTS_RESYNC") return;
      if (pending.length >= OUTBOX_MAX) return;
      pending.push({ k: topic, p: payload });
      timer ??= setTimeout(flush, Date.now() - lastFlush >= flushMs ? 0 : flushMs);
    },
    subscribe<T extends Topic>(topic: T): AsyncIterableIterator<Topics[T]> {
      return local.subscribe(topic);
    },
    stats: () => ({ ...stats }),
    async close() {
      flush();
      closed = true;
      await writing;
      await ready.catch(() => undefined);
      await feed?.close();
    },
  };
}
