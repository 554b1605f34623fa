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
 * - Scoped topics (`scoped`: a chat session's answer events, new activity entries) are written only while
 *   another process listens to the event's scope (listeners.ts: announced through the same collection; a new
 *   listener elsewhere is first sent the scope's catch-up). With one process, or every subscriber on the
 *   answering process, an answer costs no write and no change-stream read here.
 */
import mongoose from "mongoose";
import { logger } from "../logger";
import type { EventBus, Topic, Topics } from "./bus";
import { type ChangeFeed, openChangeFeed } from "./change-feed";
import { createInProcessBus } from "./in-process";
import { LISTENER_TTL_MS, ListenerRegistry } from "./listeners";
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
/** the kind of an outbox entry that is a listener announcement (listeners.ts), not an event */
const LISTEN = "~listen";

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
  /** does another process listen to this scope of a scoped topic now (tests) */
  listenedElsewhere(topic: Topic, scope: string): boolean;
  /** write what is pending, stop watching */
  close(): Promise<void>;
}

/** A scoped topic's scope of an event (a chat session): the events of a scope nobody else listens to stay here. */
export type Scopes = { [T in Topic]?: (payload: Topics[T]) => string };

export interface StoreBusOptions {
  flushMs?: number;
  /** this bus's origin (default PROCESS_ID; tests run two buses in one process) */
  origin?: string;
  /**
   * Topics written for other processes only while one of them listens to the event's scope (listen()); the
   * others are always written (preferences, sign-outs, articles: rare, and every process must hear them)
   */
  scoped?: Scopes;
  /** listener announcements' validity and renewal (listeners.ts; tests) */
  listenerTtlMs?: number;
  listenerRenewMs?: number;
}

export function createStoreBus(opts: StoreBusOptions = {}): StoreBus {
  const flushMs = opts.flushMs ?? FLUSH_MS;
  const origin = opts.origin ?? PROCESS_ID;
  const local = createInProcessBus();
  const scoped: Scopes = opts.scoped ?? {};
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

  /** for the other processes only */
  const enqueue = (k: string, p: unknown) => {
    if (closed || pending.length >= OUTBOX_MAX) return;
    pending.push({ k, p });
    timer ??= setTimeout(flush, Date.now() - lastFlush >= flushMs ? 0 : flushMs);
  };

  const listeners = new ListenerRegistry({
    ttlMs: opts.listenerTtlMs,
    renewMs: opts.listenerRenewMs,
    announce: (changes) => {
      for (const c of changes) enqueue(LISTEN, c);
    },
    catchUp: (topic, events) => {
      for (const p of events) enqueue(topic, p);
    },
  });

  const deliver = (doc: EventsDoc | undefined) => {
    if (!doc || doc.o === origin || !Array.isArray(doc.e)) return;
    for (const e of doc.e) {
      if (e.k === LISTEN) {
        listeners.received(doc.o, e.p);
        continue;
      }
      stats.received++;
      local.publish(e.k as Topic, e.p as Topics[Topic]);
    }
  };

  /** the announcements still valid when this process starts (the stream sees the later ones) */
  const readListeners = async () => {
    const since = new Date(Date.now() - (opts.listenerTtlMs ?? LISTENER_TTL_MS));
    const docs = await collection()
      .find({ t: { $gt: since }, "e.k": LISTEN, o: { $ne: origin } })
      .sort({ _id: 1 })
      .toArray();
    for (const doc of docs) for (const e of doc.e) if (e.k === LISTEN) listeners.received(doc.o, e.p);
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
      onResync: (reason) => {
        // announcements may have been missed too (a missed withdrawal only costs writes until it expires)
        void readListeners().catch((err) => logger.warn({ err }, "event listeners not read"));
        local.publish("EVENTS_RESYNC", { reason });
      },
    });
    await feed.ready;
    // after the stream is open: an announcement is in the stream, the read, or both
    await readListeners().catch((err) => logger.warn({ err }, "event listeners not read"));
  })();

  return {
    ready,
    publish<T extends Topic>(topic: T, payload: Topics[T]): void {
      local.publish(topic, payload);
      if (topic === "EVENTS_RESYNC") return;
      const scopeOf = scoped[topic] as ((p: Topics[T]) => string) | undefined;
      if (scopeOf && !listeners.listenedElsewhere(topic, scopeOf(payload))) return;
      enqueue(topic, payload);
    },
    listen: (topic, scope) => listeners.listen(topic, scope),
    catchUp<T extends Topic>(topic: T, events: (scope: string) => Topics[T][]): void {
      listeners.setCatchUp(topic, events);
    },
    listenedElsewhere: (topic, scope) => listeners.listenedElsewhere(topic, scope),
    subscribe<T extends Topic>(topic: T): AsyncIterableIterator<Topics[T]> {
      return local.subscribe(topic);
    },
    stats: () => ({ ...stats }),
    async close() {
      listeners.withdrawAll();
      flush();
      closed = true;
      await writing;
      await ready.catch(() => undefined);
      await feed?.close();
    },
  };
}
