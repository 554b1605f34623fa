/** Databases, collections and indexes: create, drop, rename, list, index management, stats. */
import type { Document } from "bson";
import type { IndexSpec } from "../../engine/types";
import type { CommandContext, CommandHandler } from "../context";
import { commandError, notSupported } from "../errors";
import { arrayArg, boolArg, bsonTypeName, collectionArg, docArg, intArg, isPlainDocument } from "./args";

/** collection options the engine cannot honour: refuse them instead of creating something different */
const UNSUPPORTED_CREATE_OPTIONS = [
  "capped",
  "viewOn",
  "pipeline",
  "timeseries",
  "clusteredIndex",
  "validator",
  "encryptedFields",
  "changeStreamPreAndPostImages",
];

async function create(ctx: CommandContext, cmd: Document): Promise<Document> {
  const name = collectionArg(ctx.db, cmd, "create");
  for (const option of UNSUPPORTED_CREATE_OPTIONS) {
    const value = cmd[option];
    if (
      value !== undefined &&
      value !== false &&
      !(isPlainDocument(value) && Object.keys(value).length === 0)
    ) {
      throw notSupported(`create with option '${option}'`);
    }
  }
  const options: Document = {};
  for (const [key, value] of Object.entries(cmd)) {
    if (key === "create" || key.startsWith("$") || IGNORED_FIELDS.has(key)) continue;
    options[key] = value;
  }
  await ctx.server.engine.createCollection(ctx.db, name, options);
  return { ok: 1 };
}

/** generic command fields that are not part of a collection's options */
const IGNORED_FIELDS = new Set([
  "lsid",
  "txnNumber",
  "writeConcern",
  "readConcern",
  "comment",
  "maxTimeMS",
  "apiVersion",
  "apiStrict",
  "apiDeprecationErrors",
]);

async function drop(ctx: CommandContext, cmd: Document): Promise<Document> {
  const name = collectionArg(ctx.db, cmd, "drop");
  let nIndexesWas: number | undefined;
  try {
    nIndexesWas = ctx.server.engine.listIndexes(ctx.db, name).length;
  } catch {
    // no such collection: MongoDB 7 answers ok without nIndexesWas
  }
  const dropped = await ctx.server.engine.dropCollection(ctx.db, name);
  if (!dropped || nIndexesWas === undefined) return { ok: 1 };
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
}

async function dropDatabase(ctx: CommandContext): Promise<Document> {
  await ctx.server.engine.dropDatabase(ctx.db);
  return { dropped: ctx.db, ok: 1 };
}

function splitNamespace(value: unknown, field: string): { db: string; coll: string } {
  if (typeof value !== "string") {
    throw commandError(
      14,
      `BSON field 'renameCollection.${field}' is the wrong type '${bsonTypeName(value)}', expected type 'string'`,
    );
  }
  const dot = value.indexOf(".");
  if (dot <= 0 || dot === value.length - 1) throw commandError(73, `Invalid ${field} namespace: ${value}`);
  return { db: value.slice(0, dot), coll: value.slice(dot + 1) };
}

async function renameCollection(ctx: CommandContext, cmd: Document): Promise<Document> {
  if (ctx.db !== "admin")
    throw commandError(13, "renameCollection may only be run against the admin database.");
  const from = splitNamespace(cmd.renameCollection, "renameCollection");
  const to = splitNamespace(cmd.to, "to");
  await ctx.server.engine.renameCollection(
    from.db,
    from.coll,
    to.db,
    to.coll,
    boolArg(cmd, "dropTarget", false),
  );
  return { ok: 1 };
}

const INDEX_TYPES = new Set(["text", "2dsphere", "2d", "hashed", "geoHaystack"]);

/** mongod's default index name: key names and directions joined by "_" */
function defaultIndexName(key: Document): string {
  return Object.entries(key)
    .map(([k, v]) => `${k}_${v}`)
    .join("_");
}

function indexSpecs(cmd: Document): IndexSpec[] {
  const raw = arrayArg(cmd, "indexes", "createIndexes");
  if (raw.length === 0) throw commandError(2, "Must specify at least one index to create");
  return raw.map((spec) => {
    if (!isPlainDocument(spec)) {
      throw commandError(
        14,
        `BSON field 'createIndexes.indexes' contains a value of type '${bsonTypeName(spec)}', expected 'object'`,
      );
    }
    const key = spec.key;
    if (!isPlainDocument(key) || Object.keys(key).length === 0) {
      throw commandError(67, "The 'key' field is a required property of an index specification");
    }
    for (const [field, dir] of Object.entries(key)) {
      const numeric = typeof dir === "number" && dir !== 0 && Number.isFinite(dir);
      if (!numeric && !(typeof dir === "string" && INDEX_TYPES.has(dir))) {
        throw commandError(
          67,
          `Values in the index key pattern can only be numbers or strings, got ${field}: ${String(dir)}`,
        );
      }
    }
    const name = spec.name === undefined ? defaultIndexName(key) : spec.name;
    if (typeof name !== "string" || name === "") {
      throw commandError(67, "The 'name' field is a required property of an index specification");
    }
    const out: IndexSpec = { ...spec, key: key as IndexSpec["key"], name };
    delete (out as Document).v;
    return out;
  });
}

async function createIndexes(ctx: CommandContext, cmd: Document): Promise<Document> {
  const coll = collectionArg(ctx.db, cmd, "createIndexes");
  const specs = indexSpecs(cmd);
  const result = await ctx.server.engine.createIndexes(ctx.db, coll, specs);
  const reply: Document = { ...result };
  if (result.numIndexesBefore === result.numIndexesAfter) reply.note = "all indexes already exist";
  reply.ok = 1;
  return reply;
}

function listIndexes(ctx: CommandContext, cmd: Document): Document {
  const coll = collectionArg(ctx.db, cmd, "listIndexes");
  const cursor = docArg(cmd, "cursor", "listIndexes") ?? {};
  const specs = ctx.server.engine.listIndexes(ctx.db, coll).map((s) => ({ v: 2, ...s }));
  return ctx.server.cursors.open(
    `${ctx.db}.${coll}`,
    specs,
    intArg(cursor, "batchSize", "listIndexes.cursor"),
  );
}

async function dropIndexes(ctx: CommandContext, cmd: Document): Promise<Document> {
  const command = Object.keys(cmd)[0];
  const coll = collectionArg(ctx.db, cmd, command);
  const index = cmd.index;
  if (typeof index !== "string" && !Array.isArray(index) && !isPlainDocument(index)) {
    throw commandError(
      14,
      `BSON field '${command}.index' is the wrong type '${bsonTypeName(index)}', expected types '[string, object]'`,
    );
  }
  const result = await ctx.server.engine.dropIndexes(ctx.db, coll, index as string | string[] | Document);
  return { ...result, ok: 1 };
}

function listCollections(ctx: CommandContext, cmd: Document): Document {
  const filter = docArg(cmd, "filter", "listCollections");
  const cursor = docArg(cmd, "cursor", "listCollections") ?? {};
  let infos: Document[] = ctx.server.engine.listCollections(ctx.db, filter);
  if (boolArg(cmd, "nameOnly", false)) infos = infos.map((c) => ({ name: c.name, type: c.type }));
  return ctx.server.cursors.open(
    `${ctx.db}.$cmd.listCollections`,
    infos,
    intArg(cursor, "batchSize", "listCollections.cursor"),
  );
}

function collStats(ctx: CommandContext, cmd: Document): Document {
  const coll = collectionArg(ctx.db, cmd, "collStats");
  const scale = Number(cmd.scale ?? 1) || 1;
  const s = ctx.server.engine.collStats(ctx.db, coll);
  const indexSizes: Record<string, number> = {};
  for (const [name, size] of Object.entries(s.indexSizes)) indexSizes[name] = size / scale;
  return {
    ...s,
    size: s.size / scale,
    storageSize: s.storageSize / scale,
    totalIndexSize: s.totalIndexSize / scale,
    totalSize: (s.storageSize + s.totalIndexSize) / scale,
    indexSizes,
    scaleFactor: scale,
    capped: false,
    ok: 1,
  };
}

export const ddlCommands: Record<string, CommandHandler> = {
  create,
  drop,
  dropDatabase,
  renameCollection,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  listCollections,
  collStats,
};
