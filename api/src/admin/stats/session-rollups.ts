/**
 * avgSessionDuration without grouping every chat message on every statistics run (issue 14: 28.6 s at 1M
 * messages). The definition is unchanged — a session's duration is its last message's timestamp minus its first
 * message's, averaged over the sessions with ≥ 2 messages — but each session's figures are kept as a roll-up:
 *
 *   chat_sessions.statsRollup = { first, last, n, dur, multi }   (dur = last − first in ms when n ≥ 2, else 0;
 *                                                                  multi = 1 when n ≥ 2, else 0)
 *
 * The roll-up sits on the session document itself so that deleting a session (or a user's sessions) removes its
 * roll-up with it: no hook in the chat is needed and a deleted session can never keep counting. Messages whose
 * session document does not exist (orphans, e.g. a race between deleting a session and an answer being saved)
 * still count by definition; their roll-ups are kept in the admin's own `stats_rollups` collection.
 *
 * Maintenance, at statistics time (any process, idempotent — several API processes may share the store):
 * - incremental: the sessions of every message whose _id (an ObjectId, made when the message is created) is at
 *   most ROLLUP_OVERLAP_S seconds older than the newest message already rolled up (the watermark) are
 *   recomputed exactly from their messages (sessionId index) and overwritten. The overlap covers writers
 *   whose clocks or inserts lag; recomputing a session twice is harmless.
 * - sums: Σn, Σdur, Σmulti over all roll-ups (one pass over the session documents), kept per process with the
 *   roll-ups' version; a process's own pass moves its sums by the difference it wrote, another process's write
 *   (a version it did not make) or a failed check takes them afresh.
 * - check: the roll-ups' message count must equal the number of chat messages. A session deleted with its
 *   messages fails it once (the sums are then taken afresh). It fails for good only when messages were changed
 *   behind the chat's back (deleted without their session, inserted with old ids); then the roll-ups are rebuilt
 *   from scratch under a lease (one process at a time; the build groups and $merges inside the store), and
 *   meanwhile other processes compute the figure directly from the messages, as before. Every answer is exact.
 */
import mongoose from "mongoose";
import { ChatMessageModel, ChatSessionModel } from "../../chat/chat.model";

/** How far (seconds of ObjectId time) each incremental pass looks back before the watermark. */
export const ROLLUP_OVERLAP_S = 300;
/** How long one process may hold the rebuild lease before another may take over (a crashed builder). */
export const ROLLUP_LEASE_MS = 10 * 60_000;
/** Sessions recomputed per store query ($in over the sessionId index; the planner takes at most 1,000). */
const BATCH = 1000;
/** How many times a pass is repeated when messages arrived while it ran, before rebuilding. */
const RETRIES = 2;

const STATE_ID = "sessions";
const ORPHAN = "orphanSession";

type Oid = mongoose.Types.ObjectId;
interface Rollup {
  first: Date;
  last: Date;
  n: number;
  dur: number;
  multi: number;
}
interface StateDoc {
  _id: string;
  watermark?: Oid | null;
  version?: number;
  leaseUntil?: Date | null;
  builtAt?: Date;
  buildMs?: number;
}

const db = () => mongoose.connection.db as mongoose.mongo.Db;
const state = () => db().collection<StateDoc>("stats_rollups");
type OrphanDoc = { _id: string; kind: string; sessionId: string; at: Date } & Rollup;
const orphans = () => db().collection<OrphanDoc>("stats_rollups");
const orphanId = (sessionId: string) => `orphan:${sessionId}`;
const sessions = () => ChatSessionModel.collection;
const messages = () => ChatMessageModel.collection;

/** Per session: first/last timestamp and count, for the sessions matched by `match`. */
async function groupSessions(match: Record<string, unknown>): Promise<Map<string, Rollup>> {
  const rows = await messages()
    .aggregate<{ _id: string; first: unknown; last: unknown; n: number }>([
      ...(Object.keys(match).length ? [{ $match: match }] : []),
      {
        $group: {
          _id: "$sessionId",
          first: { $min: "$timestamp" },
          last: { $max: "$timestamp" },
          n: { $sum: 1 },
        },
      },
    ])
    .toArray();
  const out = new Map<string, Rollup>();
  for (const r of rows) {
    const first = r.first as Date;
    const last = r.last as Date;
    // $subtract of two dates, as the definition's aggregation computes it
    const dur =
      r.n >= 2 && first instanceof Date && last instanceof Date ? last.getTime() - first.getTime() : 0;
    out.set(String(r._id), { first, last, n: r.n, dur, multi: r.n >= 2 ? 1 : 0 });
  }
  return out;
}

/**
 * Writes the roll-ups of these sessions (absent from `rolled` = no messages left: roll-up removed). A full
 * rebuild (`clean: false`) leaves stale roll-ups to its own sweep.
 */
async function writeRollups(
  ids: string[],
  rolled: Map<string, Rollup>,
  stamp: Date,
  clean = true,
): Promise<Sums | null> {
  // how the sums change: new minus old roll-ups of these sessions (null: unknown, an orphan changed)
  let delta: Sums | null = { n: 0, dur: 0, multi: 0 };
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const found = await sessions()
      .find({ sessionId: { $in: batch } }, { projection: { sessionId: 1, statsRollup: 1 } })
      .toArray();
    const existing = new Set(found.map((s) => String(s.sessionId)));
    for (const f of found) {
      const old = f.statsRollup as Partial<Rollup> | undefined;
      const r = rolled.get(String(f.sessionId));
      if (delta && (r || clean)) {
        delta.n += (r?.n ?? 0) - (old?.n ?? 0);
        delta.dur += (r?.dur ?? 0) - (old?.dur ?? 0);
        delta.multi += (r?.multi ?? 0) - (old?.multi ?? 0);
      }
    }
    if (batch.some((id) => !existing.has(id))) delta = null;
    const onSessions: mongoose.mongo.AnyBulkWriteOperation[] = [];
    const onOrphans: mongoose.mongo.AnyBulkWriteOperation<OrphanDoc>[] = [];
    for (const id of batch) {
      const r = rolled.get(id);
      if (existing.has(id) && (r || clean)) {
        onSessions.push({
          updateOne: {
            filter: { sessionId: id },
            update: r ? { $set: { statsRollup: { ...r, at: stamp } } } : { $unset: { statsRollup: "" } },
          },
        });
      }
      if (r && !existing.has(id)) {
        const replacement = { kind: ORPHAN, sessionId: id, at: stamp, ...r };
        onOrphans.push({ replaceOne: { filter: { _id: orphanId(id) }, replacement, upsert: true } });
      } else if (clean) onOrphans.push({ deleteOne: { filter: { _id: orphanId(id) } } });
    }
    if (onSessions.length) await sessions().bulkWrite(onSessions, { ordered: false });
    if (onOrphans.length) await orphans().bulkWrite(onOrphans, { ordered: false });
  }
  return delta;
}

/** Every write to the roll-ups bumps the state's version (the sums cached by other processes are then stale). */
async function bumpVersion(): Promise<number | undefined> {
  const doc = await state().findOneAndUpdate(
    { _id: STATE_ID },
    { $inc: { version: 1 } },
    { upsert: true, returnDocument: "after" },
  );
  return doc?.version;
}

/** The newest message id now (null: no messages). */
async function newestMessageId(): Promise<Oid | null> {
  const [doc] = await messages()
    .find({}, { projection: { _id: 1 } })
    .sort({ _id: -1 })
    .limit(1)
    .toArray();
  return (doc?._id as Oid | undefined) ?? null;
}

/** Recompute the sessions of messages at or after the watermark minus the overlap. False: no watermark yet. */
async function incrementalPass(): Promise<boolean> {
  const s = await state().findOne({ _id: STATE_ID });
  if (!s?.watermark) return false;
  const since = mongoose.Types.ObjectId.createFromTime(
    Math.max(0, Math.floor(s.watermark.getTimestamp().getTime() / 1000) - ROLLUP_OVERLAP_S),
  );
  const recent = { _id: { $gte: since } };
  // the newest id first: whatever is written meanwhile is at or after it, so the next pass sees it
  const [newest] = await messages()
    .find(recent, { projection: { _id: 1 } })
    .sort({ _id: -1 })
    .limit(1)
    .toArray();
  if (!newest) return true;
  const ids = (await messages().distinct("sessionId", recent)).map(String);
  const stamp = new Date();
  let delta: Sums | null = { n: 0, dur: 0, multi: 0 };
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const d = await writeRollups(batch, await groupSessions({ sessionId: { $in: batch } }), stamp);
    delta = delta && d && { n: delta.n + d.n, dur: delta.dur + d.dur, multi: delta.multi + d.multi };
  }
  const version = await bumpVersion();
  // this process's cached sums follow the pass when no other process wrote in between
  const hit = cachedSums.get(db());
  if (hit && delta && version === (s.version ?? 0) + 1 && hit.version === (s.version ?? 0)) {
    const { n, dur, multi } = hit.sums;
    cachedSums.set(db(), {
      version,
      sums: { n: n + delta.n, dur: dur + delta.dur, multi: multi + delta.multi },
    });
  } else cachedSums.delete(db());
  const top = newest._id as Oid;
  await state().updateOne({ _id: STATE_ID }, { $max: { watermark: top } });
  return true;
}

type Sums = { n: number; dur: number; multi: number };
/**
 * The last sums this process computed per store and the roll-ups' version they match (every pass that writes
 * roll-ups bumps it; this process's own passes carry the sums forward by their difference). A deleted session
 * removes its roll-up without a pass: the message count check then fails and the sums are taken afresh.
 */
const cachedSums = new WeakMap<object, { version: number; sums: Sums }>();

/** Σ over every roll-up; the cached sums unless `fresh` or another process wrote roll-ups since. */
async function currentSums(fresh: boolean): Promise<Sums> {
  const st = await state().findOne({ _id: STATE_ID }, { projection: { version: 1 } });
  const version = st?.version ?? 0;
  const hit = cachedSums.get(db());
  if (!fresh && hit?.version === version) return hit.sums;
  const computed = await sums();
  cachedSums.set(db(), { version, sums: computed });
  return computed;
}

/** Σ over every roll-up: messages, durations (ms) and sessions with ≥ 2 messages. */
async function sums(): Promise<Sums> {
  const group = (prefix: string) => ({
    $group: {
      _id: null,
      n: { $sum: `$${prefix}n` },
      dur: { $sum: `$${prefix}dur` },
      multi: { $sum: `$${prefix}multi` },
    },
  });
  const [[a], [b]] = await Promise.all([
    sessions()
      .aggregate<{ n: number; dur: number; multi: number }>([group("statsRollup.")])
      .toArray(),
    orphans()
      .aggregate<{ n: number; dur: number; multi: number }>([{ $match: { kind: ORPHAN } }, group("")])
      .toArray(),
  ]);
  return {
    n: (a?.n ?? 0) + (b?.n ?? 0),
    dur: (a?.dur ?? 0) + (b?.dur ?? 0),
    multi: (a?.multi ?? 0) + (b?.multi ?? 0),
  };
}

/** Take the rebuild lease; false when another process holds it. */
async function takeLease(): Promise<boolean> {
  const now = new Date();
  try {
    const r = await state().updateOne(
      { _id: STATE_ID, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] },
      { $set: { leaseUntil: new Date(now.getTime() + ROLLUP_LEASE_MS) } },
      { upsert: true },
    );
    return r.modifiedCount + r.upsertedCount === 1;
  } catch (e) {
    // the upsert met the state document held by another process
    if ((e as { code?: number }).code === 11000) return false;
    throw e;
  }
}

/** Build every roll-up from all messages (under the lease). Returns the time it took in ms. */
export async function rebuildSessionRollups(): Promise<number> {
  const started = performance.now();
  const stamp = new Date();
  // everything inserted from here on is at or after the watermark (minus the overlap): the next pass sees it
  const watermark = await newestMessageId();
  const total = await messages().estimatedDocumentCount();
  // grouped and written inside the store ($merge onto the session documents; no session document: discarded)
  const multi = { $gte: ["$n", 2] };
  await messages()
    .aggregate([
      {
        $group: {
          _id: "$sessionId",
          first: { $min: "$timestamp" },
          last: { $max: "$timestamp" },
          n: { $sum: 1 },
        },
      },
      {
        $project: {
          _id: 0,
          sessionId: "$_id",
          statsRollup: {
            first: "$first",
            last: "$last",
            n: "$n",
            dur: { $cond: [multi, { $subtract: ["$last", "$first"] }, 0] },
            multi: { $cond: [multi, 1, 0] },
            at: { $literal: stamp },
          },
        },
      },
      {
        $merge: {
          into: sessions().collectionName,
          on: "sessionId",
          whenMatched: "merge",
          whenNotMatched: "discard",
        },
      },
    ])
    .toArray();
  // roll-ups of sessions that lost their messages behind the chat's back
  await sessions().updateMany({ "statsRollup.at": { $lt: stamp } }, { $unset: { statsRollup: "" } });
  await orphans().deleteMany({ kind: ORPHAN, at: { $lt: stamp } });
  // messages without a session document (rare): their roll-ups are written one by one
  const [onSessions] = await sessions()
    .aggregate<{ n: number }>([{ $group: { _id: null, n: { $sum: "$statsRollup.n" } } }])
    .toArray();
  if ((onSessions?.n ?? 0) !== total) {
    const rolled = await groupSessions({});
    await writeRollups([...rolled.keys()], rolled, stamp, false);
  }
  cachedSums.delete(db());
  await bumpVersion();
  const buildMs = Math.round(performance.now() - started);
  await state().updateOne(
    { _id: STATE_ID },
    {
      $set: {
        watermark: watermark ?? mongoose.Types.ObjectId.createFromTime(0),
        builtAt: new Date(),
        buildMs,
        leaseUntil: null,
      },
    },
    { upsert: true },
  );
  return buildMs;
}

/** The mean duration in ms over the sessions with ≥ 2 messages, straight from the messages (the definition). */
async function directAverageMs(): Promise<number> {
  const [row] = await messages()
    .aggregate<{ avgMs: number | null }>([
      {
        $group: {
          _id: "$sessionId",
          first: { $min: "$timestamp" },
          last: { $max: "$timestamp" },
          n: { $sum: 1 },
        },
      },
      { $match: { n: { $gte: 2 } } },
      { $group: { _id: null, avgMs: { $avg: { $subtract: ["$last", "$first"] } } } },
    ])
    .toArray();
  return row?.avgMs ?? 0;
}

export interface DurationResult {
  /** mean duration in ms over sessions with ≥ 2 messages (0 when there is none) */
  avgMs: number;
  /** how it was answered: roll-ups brought up to date, a rebuild first, or directly (another process builds) */
  via: "rollups" | "rebuilt" | "direct";
  buildMs?: number;
}

/** The mean from the roll-ups brought up to date, or null when they disagree with the messages. */
async function fromRollups(): Promise<number | null> {
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    const before = await messages().estimatedDocumentCount();
    if (!(await incrementalPass())) return null;
    // equal before or after: no message came or went outside what the pass saw
    const agrees = async (s: Sums) => s.n === before || s.n === (await messages().estimatedDocumentCount());
    let s = await currentSums(false);
    if (!(await agrees(s))) s = await currentSums(true);
    if (await agrees(s)) return s.multi ? s.dur / s.multi : 0;
  }
  return null;
}

/** The average session duration, from roll-ups brought up to date now (see the module comment). */
export async function averageSessionDuration(): Promise<DurationResult> {
  const avgMs = await fromRollups();
  if (avgMs !== null) return { avgMs, via: "rollups" };
  if (await takeLease()) {
    let buildMs: number;
    try {
      buildMs = await rebuildSessionRollups();
    } catch (e) {
      await state().updateOne({ _id: STATE_ID }, { $set: { leaseUntil: null } });
      throw e;
    }
    const rebuilt = await fromRollups();
    if (rebuilt !== null) return { avgMs: rebuilt, via: "rebuilt", buildMs };
  }
  return { avgMs: await directAverageMs(), via: "direct" };
}
