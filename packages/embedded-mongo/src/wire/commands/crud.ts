/** Reads and writes: insert, find, getMore, killCursors, update, delete, findAndModify, aggregate, count, distinct. */
import { calculateObjectSize, type Document, Long } from "bson";
import type { DeleteStatement, SortSpec, UpdateStatement, WriteError } from "../../engine/types";
import { MAX_BSON_OBJECT_SIZE, MAX_WRITE_BATCH_SIZE } from "../constants";
import type { CommandContext, CommandHandler } from "../context";
import { toCursorId } from "../cursors";
import { commandError, notSupported } from "../errors";
import { arrayArg, boolArg, bsonTypeName, collectionArg, docArg, intArg, isPlainDocument } from "./args";
import { openChangeStream, streamGetMore } from "./changestream";

/** the collection of getMore/killCursors: "$cmd.aggregate" names a database-level aggregation cursor */
function cursorCollection(ctx: CommandContext, cmd: Document, field: string): string {
  return cmd[field] === "$cmd.aggregate" ? "$cmd.aggregate" : collectionArg(ctx.db, cmd, field);
}

function checkBatchSize(n: number): void {
  if (n < 1 || n > MAX_WRITE_BATCH_SIZE) {
    throw commandError(
      16,
      `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${n} operations.`,
    );
  }
}

/** Write replies carry writeErrors / upserted only when there are some, like mongod. */
function writeReply(fields: Document, writeErrors: WriteError[]): Document {
  const reply: Document = { ...fields };
  if (writeErrors.length > 0) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
}

/** BSON sizes of the inserted documents, measured only when the message is big enough for one to be too large. */
function documentSizes(ctx: CommandContext, docs: Document[]): number[] | undefined {
  const fromSequence = ctx.sequenceSizes.documents;
  if (fromSequence && fromSequence.length === docs.length) return fromSequence;
  if (ctx.messageLength <= MAX_BSON_OBJECT_SIZE) return undefined;
  return docs.map((d) => calculateObjectSize(d));
}

async function insert(ctx: CommandContext, cmd: Document): Promise<Document> {
  const coll = collectionArg(ctx.db, cmd, "insert");
  const docs = arrayArg(cmd, "documents", "insert");
  checkBatchSize(docs.length);
  docs.forEach((d, i) => {
    if (!isPlainDocument(d)) {
      throw commandError(
        14,
        `BSON field 'insert.documents.${i}' is the wrong type '${bsonTypeName(d)}', expected type 'object'`,
      );
    }
  });
  const ordered = boolArg(cmd, "ordered", true);
  const engine = ctx.server.engine;
  const sizes = documentSizes(ctx, docs as Document[]);
  const tooLarge = new Map<number, WriteError>();
  sizes?.forEach((size, index) => {
    if (size > MAX_BSON_OBJECT_SIZE) {
      tooLarge.set(index, {
        index,
        code: 10334,
        errmsg: `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`,
      });
    }
  });
  if (tooLarge.size === 0) {
    const result = await engine.insert(ctx.db, coll, docs as Document[], ordered);
    return writeReply({ n: result.n }, result.writeErrors);
  }
  // some documents are rejected before they reach the engine: run the rest and keep the batch's indexes
  if (ordered) {
    const firstBad = Math.min(...tooLarge.keys());
    let n = 0;
    if (firstBad > 0) {
      const result = await engine.insert(ctx.db, coll, docs.slice(0, firstBad) as Document[], true);
      if (result.writeErrors.length > 0) return writeReply({ n: result.n }, result.writeErrors);
      n = result.n;
    }
    return writeReply({ n }, [tooLarge.get(firstBad)!]);
  }
  const keep: number[] = [];
  docs.forEach((_, i) => {
    if (!tooLarge.has(i)) keep.push(i);
  });
  let n = 0;
  const errors: WriteError[] = [...tooLarge.values()];
  if (keep.length > 0) {
    const result = await engine.insert(
      ctx.db,
      coll,
      keep.map((i) => docs[i] as Document),
      false,
    );
    n = result.n;
    for (const e of result.writeErrors) errors.push({ ...e, index: keep[e.index] });
  }
  errors.sort((a, b) => a.index - b.index);
  return writeReply({ n }, errors);
}

function sortArg(cmd: Document, field: string, command: string): SortSpec | undefined {
  const sort = docArg(cmd, field, command);
  if (!sort || Object.keys(sort).length === 0) return undefined;
  for (const [key, dir] of Object.entries(sort)) {
    if (dir === 1 || dir === -1 || (isPlainDocument(dir) && typeof dir.$meta === "string")) continue;
    if (typeof dir === "number") {
      throw commandError(15975, "$sort key ordering must be 1 (for ascending) or -1 (for descending)");
    }
    throw commandError(15974, `Illegal key in $sort specification: ${key}: ${JSON.stringify(dir)}`);
  }
  return sort as SortSpec;
}

function rejectUnsupportedFindOptions(cmd: Document, command: string): void {
  if (cmd.tailable === true || cmd.awaitData === true) {
    throw commandError(2, "error processing query: tailable cursor requested on non capped collection");
  }
  if (cmd.min !== undefined || cmd.max !== undefined) throw notSupported(`${command} with min/max`);
  if (cmd.returnKey === true) throw notSupported(`${command} with returnKey`);
  if (cmd.showRecordId === true) throw notSupported(`${command} with showRecordId`);
  if (cmd.let !== undefined) throw notSupported(`${command} with let variables`);
}

function find(ctx: CommandContext, cmd: Document): Document {
  const coll = collectionArg(ctx.db, cmd, "find");
  rejectUnsupportedFindOptions(cmd, "find");
  const filter = docArg(cmd, "filter", "find");
  const projection = docArg(cmd, "projection", "find");
  const sort = sortArg(cmd, "sort", "find");
  const skip = intArg(cmd, "skip", "find");
  let limit = intArg(cmd, "limit", "find", true);
  let singleBatch = boolArg(cmd, "singleBatch", false);
  // legacy semantics of a negative limit: return at most |limit| documents in one batch and close the cursor
  if (limit !== undefined && limit < 0) {
    limit = -limit;
    singleBatch = true;
  }
  const batchSize = intArg(cmd, "batchSize", "find");
  const hint = cmd.hint as string | Document | undefined;
  const docs = ctx.server.engine.find(ctx.db, coll, {
    filter,
    sort,
    projection,
    skip: skip || undefined,
    limit: limit || undefined,
    hint,
  });
  return ctx.server.cursors.open(`${ctx.db}.${coll}`, docs, batchSize, singleBatch);
}

function getMore(ctx: CommandContext, cmd: Document): Document | Promise<Document> {
  const id = toCursorId(cmd.getMore);
  if (id === undefined) {
    throw commandError(
      14,
      `BSON field 'getMore.getMore' is the wrong type '${bsonTypeName(cmd.getMore)}', expected type 'long'`,
    );
  }
  const ns = `${ctx.db}.${cursorCollection(ctx, cmd, "collection")}`;
  const stream = ctx.server.cursors.stream(id, ns);
  if (stream) return streamGetMore(ctx, cmd, id, ns, stream);
  const batchSize = intArg(cmd, "batchSize", "getMore");
  return ctx.server.cursors.getMore(id, ns, batchSize);
}

function killCursors(ctx: CommandContext, cmd: Document): Document {
  const coll = cursorCollection(ctx, cmd, "killCursors");
  const ids = arrayArg(cmd, "cursors", "killCursors").map((v) => {
    const id = toCursorId(v);
    if (id === undefined) {
      throw commandError(
        14,
        `BSON field 'killCursors.cursors' contains a value of type '${bsonTypeName(v)}', expected 'long'`,
      );
    }
    return id;
  });
  const { killed, notFound } = ctx.server.cursors.kill(`${ctx.db}.${coll}`, ids);
  return {
    cursorsKilled: killed.map((id) => Long.fromBigInt(id)),
    cursorsNotFound: notFound.map((id) => Long.fromBigInt(id)),
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
}

function updateStatements(cmd: Document): UpdateStatement[] {
  const raw = arrayArg(cmd, "updates", "update");
  checkBatchSize(raw.length);
  return raw.map((s, i) => {
    if (!isPlainDocument(s)) {
      throw commandError(
        14,
        `BSON field 'update.updates.${i}' is the wrong type '${bsonTypeName(s)}', expected type 'object'`,
      );
    }
    const q = docArg(s, "q", "update.updates");
    if (!q) throw commandError(40414, "BSON field 'update.updates.q' is missing but a required field");
    const u = s.u;
    if (!isPlainDocument(u) && !Array.isArray(u)) {
      throw commandError(
        u === undefined ? 40414 : 14,
        u === undefined
          ? "BSON field 'update.updates.u' is missing but a required field"
          : `BSON field 'update.updates.u' is the wrong type '${bsonTypeName(u)}', expected type 'object'`,
      );
    }
    const statement: UpdateStatement = {
      q,
      u,
      multi: boolArg(s, "multi", false),
      upsert: boolArg(s, "upsert", false),
    };
    if (s.arrayFilters !== undefined)
      statement.arrayFilters = arrayArg(s, "arrayFilters", "update.updates") as Document[];
    if (s.hint !== undefined && !(isPlainDocument(s.hint) && Object.keys(s.hint).length === 0))
      statement.hint = s.hint;
    return statement;
  });
}

async function update(ctx: CommandContext, cmd: Document): Promise<Document> {
  const coll = collectionArg(ctx.db, cmd, "update");
  if (cmd.let !== undefined) throw notSupported("update with let variables");
  const statements = updateStatements(cmd);
  const result = await ctx.server.engine.update(ctx.db, coll, statements, boolArg(cmd, "ordered", true));
  const fields: Document = { n: result.n, nModified: result.nModified };
  if (result.upserted.length > 0) fields.upserted = result.upserted;
  return writeReply(fields, result.writeErrors);
}

async function deleteCommand(ctx: CommandContext, cmd: Document): Promise<Document> {
  const coll = collectionArg(ctx.db, cmd, "delete");
  if (cmd.let !== undefined) throw notSupported("delete with let variables");
  const raw = arrayArg(cmd, "deletes", "delete");
  checkBatchSize(raw.length);
  const statements: DeleteStatement[] = raw.map((s, i) => {
    if (!isPlainDocument(s)) {
      throw commandError(
        14,
        `BSON field 'delete.deletes.${i}' is the wrong type '${bsonTypeName(s)}', expected type 'object'`,
      );
    }
    const q = docArg(s, "q", "delete.deletes");
    if (!q) throw commandError(40414, "BSON field 'delete.deletes.q' is missing but a required field");
    const limit = intArg(s, "limit", "delete.deletes");
    if (limit === undefined)
      throw commandError(40414, "BSON field 'delete.deletes.limit' is missing but a required field");
    if (limit !== 0 && limit !== 1) {
      throw commandError(9, `The limit field in delete objects must be 0 or 1. Got ${limit}`);
    }
    const statement: DeleteStatement = { q, limit };
    if (s.hint !== undefined && !(isPlainDocument(s.hint) && Object.keys(s.hint).length === 0))
      statement.hint = s.hint;
    return statement;
  });
  const result = await ctx.server.engine.delete(ctx.db, coll, statements, boolArg(cmd, "ordered", true));
  return writeReply({ n: result.n }, result.writeErrors);
}

async function findAndModify(ctx: CommandContext, cmd: Document): Promise<Document> {
  const command = Object.keys(cmd)[0];
  const coll = collectionArg(ctx.db, cmd, command);
  if (cmd.let !== undefined) throw notSupported("findAndModify with let variables");
  const query = docArg(cmd, "query", command);
  const sort = sortArg(cmd, "sort", command);
  const fields = docArg(cmd, "fields", command);
  const remove = boolArg(cmd, "remove", false);
  const returnNew = boolArg(cmd, "new", false);
  const upsert = boolArg(cmd, "upsert", false);
  const update = cmd.update;
  if (update !== undefined && !isPlainDocument(update) && !Array.isArray(update)) {
    throw commandError(
      14,
      `BSON field '${command}.update' is the wrong type '${bsonTypeName(update)}', expected type 'object'`,
    );
  }
  if (remove && update !== undefined) throw commandError(9, "Cannot specify both an update and remove=true");
  if (!remove && update === undefined)
    throw commandError(9, "Either an update or remove=true must be specified");
  if (remove && upsert) throw commandError(9, "Cannot specify both upsert=true and remove=true ");
  if (remove && returnNew) {
    throw commandError(
      9,
      "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
    );
  }
  const result = await ctx.server.engine.findAndModify(ctx.db, coll, {
    query,
    sort,
    update: update as Document | Document[] | undefined,
    remove,
    new: returnNew,
    upsert,
    fields,
    arrayFilters:
      cmd.arrayFilters === undefined ? undefined : (arrayArg(cmd, "arrayFilters", command) as Document[]),
  });
  return { lastErrorObject: result.lastErrorObject, value: result.value, ok: 1 };
}

async function aggregate(ctx: CommandContext, cmd: Document): Promise<Document> {
  const target = cmd.aggregate;
  const coll = target === 1 ? null : collectionArg(ctx.db, cmd, "aggregate");
  const pipeline = arrayArg(cmd, "pipeline", "aggregate") as Document[];
  pipeline.forEach((stage, i) => {
    if (!isPlainDocument(stage) || Object.keys(stage).length !== 1) {
      throw commandError(40323, "A pipeline stage specification object must contain exactly one field.");
    }
    if (Object.hasOwn(stage, "$changeStream") && i > 0) {
      throw commandError(40602, "$changeStream is only valid as the first stage in a pipeline");
    }
    if (i < pipeline.length - 1 && (Object.hasOwn(stage, "$out") || Object.hasOwn(stage, "$merge"))) {
      throw commandError(40601, `${Object.keys(stage)[0]} can only be the final stage in the pipeline`);
    }
  });
  if (cmd.explain === true) throw notSupported("aggregate with explain");
  if (cmd.let !== undefined) throw notSupported("aggregate with let variables");
  if (pipeline.length > 0 && Object.hasOwn(pipeline[0], "$changeStream"))
    return openChangeStream(ctx, cmd, coll, pipeline);
  const cursorOpts = docArg(cmd, "cursor", "aggregate");
  if (!cursorOpts)
    throw commandError(9, "The 'cursor' option is required, except for aggregate with the explain argument");
  const batchSize = intArg(cursorOpts, "batchSize", "aggregate.cursor");
  const docs = await ctx.server.engine.aggregate(ctx.db, coll, pipeline);
  const ns = coll === null ? `${ctx.db}.$cmd.aggregate` : `${ctx.db}.${coll}`;
  return ctx.server.cursors.open(ns, docs, batchSize);
}

function count(ctx: CommandContext, cmd: Document): Document {
  const coll = collectionArg(ctx.db, cmd, "count");
  const query = docArg(cmd, "query", "count");
  const skip = intArg(cmd, "skip", "count");
  const limit = intArg(cmd, "limit", "count", true);
  const n = ctx.server.engine.count(
    ctx.db,
    coll,
    query,
    skip || undefined,
    limit ? Math.abs(limit) : undefined,
  );
  return { n, ok: 1 };
}

function distinct(ctx: CommandContext, cmd: Document): Document {
  const coll = collectionArg(ctx.db, cmd, "distinct");
  const key = cmd.key;
  if (typeof key !== "string") {
    throw commandError(
      key === undefined ? 40414 : 14,
      key === undefined
        ? "BSON field 'distinct.key' is missing but a required field"
        : `BSON field 'distinct.key' is the wrong type '${bsonTypeName(key)}', expected type 'string'`,
    );
  }
  const query = docArg(cmd, "query", "distinct");
  return { values: ctx.server.engine.distinct(ctx.db, coll, key, query), ok: 1 };
}

export const crudCommands: Record<string, CommandHandler> = {
  insert,
  find,
  getMore,
  killCursors,
  update,
  delete: deleteCommand,
  findAndModify,
  findandmodify: findAndModify,
  aggregate,
  count,
  distinct,
};
