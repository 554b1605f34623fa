/**
 * Change streams over the wire: `aggregate` with a leading $changeStream opens a stream cursor; `getMore` on it
 * waits (awaitData) until a change is committed or maxTimeMS passes, woken by the commit itself, not by polling.
 */
import { type Document, Long } from "bson";
import type { StreamScope } from "../../changestream/events";
import { ChangeStream } from "../../changestream/stream";
import { DEFAULT_FIRST_BATCH_SIZE, MAX_BATCH_BYTES } from "../constants";
import type { CommandContext } from "../context";
import type { StreamCursor } from "../cursors";
import { commandError } from "../errors";
import { boolArg, docArg, intArg } from "./args";

/** getMore on a change stream waits this long without maxTimeMS (mongod: 1 s) */
export const DEFAULT_AWAIT_MS = 1000;
/** the longest a getMore may wait */
export const MAX_AWAIT_MS = 10 * 60 * 1000;

function scopeOf(ctx: CommandContext, coll: string | null, spec: Document): StreamScope {
  const cluster = boolArg(spec, "allChangesForCluster", false);
  if (cluster) {
    if (ctx.db !== "admin" || coll !== null) {
      throw commandError(
        73,
        "A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and with no collection name",
      );
    }
    return { kind: "cluster" };
  }
  if (["admin", "config", "local"].includes(ctx.db))
    throw commandError(73, `$changeStream may not be opened on the internal ${ctx.db} database`);
  if (coll === null) return { kind: "database", db: ctx.db };
  if (coll.startsWith("system."))
    throw commandError(73, `$changeStream may not be opened on the internal ${ctx.db}.${coll} collection`);
  return { kind: "collection", db: ctx.db, coll };
}

/** aggregate [{ $changeStream: {...} }, ...stages]: the first batch holds what is already there, if anything */
export function openChangeStream(
  ctx: CommandContext,
  cmd: Document,
  coll: string | null,
  pipeline: Document[],
): Document {
  const spec = docArg(pipeline[0], "$changeStream", "aggregate") ?? {};
  const scope = scopeOf(ctx, coll, spec);
  const engine = ctx.server.engine;
  const lookup = (db: string, c: string, id: unknown) =>
    engine.find(db, c, { filter: { _id: id }, limit: 1 })[0] ?? null;
  const stream = ChangeStream.open(engine.changes, scope, spec, pipeline.slice(1), lookup);
  const cursorOpts = docArg(cmd, "cursor", "aggregate") ?? {};
  const batchSize = intArg(cursorOpts, "batchSize", "aggregate.cursor") ?? DEFAULT_FIRST_BATCH_SIZE;
  const batch = stream.next(batchSize, MAX_BATCH_BYTES);
  const ns = coll === null ? `${ctx.db}.$cmd.aggregate` : `${ctx.db}.${coll}`;
  const id = batch.done ? 0n : ctx.server.cursors.openStream(ns, stream);
  return {
    cursor: {
      firstBatch: batch.events,
      postBatchResumeToken: batch.postBatchResumeToken,
      id: Long.fromBigInt(id),
      ns,
    },
    ok: 1,
  };
}

/** getMore on a change stream cursor: returns at once when there are events, else waits for some */
export async function streamGetMore(
  ctx: CommandContext,
  cmd: Document,
  id: bigint,
  ns: string,
  cursor: StreamCursor,
): Promise<Document> {
  if (cursor.busy) throw commandError(292, `Cursor id ${id} is already in use`);
  const batchSize = intArg(cmd, "batchSize", "getMore") || Number.POSITIVE_INFINITY;
  const waitMs = Math.min(intArg(cmd, "maxTimeMS", "getMore") ?? DEFAULT_AWAIT_MS, MAX_AWAIT_MS);
  const deadline = Date.now() + waitMs;
  const changes = ctx.server.engine.changes;
  cursor.busy = true;
  try {
    for (;;) {
      const batch = cursor.stream.next(batchSize, MAX_BATCH_BYTES);
      const left = deadline - Date.now();
      if (batch.events.length > 0 || batch.done || left <= 0 || changes.isClosed) {
        if (batch.done) ctx.server.cursors.remove(id);
        return {
          cursor: {
            nextBatch: batch.events,
            postBatchResumeToken: batch.postBatchResumeToken,
            id: Long.fromBigInt(batch.done ? 0n : id),
            ns,
          },
          ok: 1,
        };
      }
      // woken only by a change this stream has an event (or its end) for
      await changes.waitForChange(
        left,
        (wake) => {
          cursor.wake = wake;
        },
        (entry) => cursor.stream.wants(entry),
      );
      cursor.wake = undefined;
      if (!ctx.server.cursors.has(id)) throw commandError(237, `cursor id ${id} was killed while it waited`);
    }
  } finally {
    cursor.busy = false;
  }
}
