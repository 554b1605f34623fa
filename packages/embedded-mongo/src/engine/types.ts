/**
 * Contract between the embedded store's wire layer (../wire, commands, cursors, server) and its storage engine
 * (this folder: collections, indexes, query execution, updates, durability).
 *
 * Documents are plain JS objects as produced by `bson.deserialize` (ObjectId, Long, Decimal128, Binary, Date, ...
 * keep their bson classes). The engine never clones with structuredClone (it drops bson prototypes).
 * Results returned by the engine may be shared with its internal state: the wire layer only serializes them.
 * Inputs handed to the engine become the engine's (the wire layer does not reuse them).
 *
 * Every failure the client should see is thrown as a StoreError carrying MongoDB's numeric code and codeName.
 */
import type { Document } from "bson";
import type { ChangeLog, ChangeLogOptions } from "./changelog";

export type SortSpec = Record<string, 1 | -1 | { $meta: string }>;

export interface IndexSpec {
  /** e.g. "email_1" or "userId_1_createdAt_-1"; "_id_" for the primary index */
  name: string;
  key: Record<string, 1 | -1 | string>;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  /** any other option a client sent (collation, background, ...) is kept and echoed by listIndexes */
  [option: string]: unknown;
}

export interface FindOptions {
  filter?: Document;
  sort?: SortSpec;
  projection?: Document;
  skip?: number;
  /** 0 or undefined: no limit */
  limit?: number;
  hint?: string | Document;
}

export interface WriteError {
  /** index of the failing operation within the batch */
  index: number;
  code: number;
  errmsg: string;
  /** for duplicate keys (code 11000) */
  keyPattern?: Document;
  keyValue?: Document;
}

export interface InsertResult {
  n: number;
  writeErrors: WriteError[];
}

export interface UpdateStatement {
  q: Document;
  /** an update-operator document, a replacement document, or an aggregation pipeline (array) */
  u: Document | Document[];
  multi?: boolean;
  upsert?: boolean;
  arrayFilters?: Document[];
  hint?: string | Document;
}

export interface UpdateResult {
  n: number;
  nModified: number;
  upserted: { index: number; _id: unknown }[];
  writeErrors: WriteError[];
}

export interface DeleteStatement {
  q: Document;
  /** 0 = all matching, 1 = one */
  limit: 0 | 1;
  hint?: string | Document;
}

export interface DeleteResult {
  n: number;
  writeErrors: WriteError[];
}

export interface FindAndModifyArgs {
  query?: Document;
  sort?: SortSpec;
  update?: Document | Document[];
  remove?: boolean;
  /** return the document after the change (true) or before it (false, default) */
  new?: boolean;
  upsert?: boolean;
  fields?: Document;
  arrayFilters?: Document[];
}

export interface FindAndModifyResult {
  value: Document | null;
  lastErrorObject: { n: number; updatedExisting?: boolean; upserted?: unknown };
}

export interface CollectionInfo {
  name: string;
  type: "collection";
  options: Document;
  info: { readOnly: false; uuid?: unknown };
  idIndex: Document;
}

export interface CollStats {
  ns: string;
  count: number;
  size: number;
  avgObjSize: number;
  storageSize: number;
  nindexes: number;
  totalIndexSize: number;
  indexSizes: Record<string, number>;
}

export interface DbStats {
  db: string;
  collections: number;
  views: 0;
  objects: number;
  avgObjSize: number;
  dataSize: number;
  storageSize: number;
  indexes: number;
  indexSize: number;
}

export interface EngineOptions {
  /** directory for durable storage; omitted = memory only */
  dbpath?: string;
  /** fsync the write-ahead log before acknowledging (default false: a write() to the OS, survives kill -9) */
  fsync?: boolean;
  /** how often expired TTL documents are removed (ms); mongod uses 60 s */
  ttlIntervalMs?: number;
  /** compact the log into a snapshot when it grows past this many bytes */
  compactAfterBytes?: number;
  /** how much change history is kept for change streams (changelog.ts) */
  changeHistory?: ChangeLogOptions;
}

/** How the engine fetched the documents of its last query (an explain-like observation for tests). */
export interface QueryPlan {
  /** namespace "db.coll" */
  collection: string;
  /** IDHACK (_id lookup), IXSCAN (index range scan) or COLLSCAN (full scan) */
  stage: "IDHACK" | "IXSCAN" | "COLLSCAN";
  /** the index used, null for a collection scan */
  index: string | null;
  keysExamined: number;
  docsExamined: number;
  /** true when the documents came in sort order from the index (no in-memory sort) */
  sortedByIndex?: boolean;
  /** documents returned */
  nReturned?: number;
  /**
   * index keys counted while choosing between candidate indexes (planner.ts chooseIndex; absent when one index
   * or none could serve the filter); not part of keysExamined
   */
  planKeysCounted?: number;
}

/** The storage engine. All methods take the database name and collection name separately. */
export interface Engine {
  listDatabases(): { name: string; sizeOnDisk: number; empty: boolean }[];
  dropDatabase(db: string): Promise<void>;

  listCollections(db: string, filter?: Document): CollectionInfo[];
  /** throws StoreError 48 NamespaceExists when it exists */
  createCollection(db: string, name: string, options?: Document): Promise<void>;
  /** false when there was no such collection */
  dropCollection(db: string, name: string): Promise<boolean>;
  renameCollection(db: string, from: string, toDb: string, to: string, dropTarget: boolean): Promise<void>;

  /** creates the collection when missing; an identical existing index is a no-op; a conflicting one throws 85/86 */
  createIndexes(
    db: string,
    coll: string,
    specs: IndexSpec[],
  ): Promise<{ createdCollectionAutomatically: boolean; numIndexesBefore: number; numIndexesAfter: number }>;
  /** throws 26 NamespaceNotFound when the collection is missing */
  listIndexes(db: string, coll: string): IndexSpec[];
  /** "*" drops all but _id_; a name, a list of names, or a key pattern; throws 27 IndexNotFound */
  dropIndexes(
    db: string,
    coll: string,
    index: string | string[] | Document,
  ): Promise<{ nIndexesWas: number }>;

  /** creates the collection when missing; adds _id (ObjectId) when absent */
  insert(db: string, coll: string, docs: Document[], ordered: boolean): Promise<InsertResult>;
  /** uses an index for equality/range/$in on indexed fields instead of scanning when it can */
  find(db: string, coll: string, options: FindOptions): Document[];
  update(db: string, coll: string, updates: UpdateStatement[], ordered: boolean): Promise<UpdateResult>;
  delete(db: string, coll: string, deletes: DeleteStatement[], ordered: boolean): Promise<DeleteResult>;
  findAndModify(db: string, coll: string, args: FindAndModifyArgs): Promise<FindAndModifyResult>;
  /** all mingo stages; $lookup/$unionWith/$graphLookup read other collections of the same db; $out/$merge write */
  aggregate(db: string, coll: string | null, pipeline: Document[]): Promise<Document[]>;
  count(db: string, coll: string, query?: Document, skip?: number, limit?: number): number;
  distinct(db: string, coll: string, key: string, query?: Document): unknown[];

  dbStats(db: string): DbStats;
  collStats(db: string, coll: string): CollStats;

  /** stop timers, flush and release the data directory lock */
  /** Resolves when a compaction of the log under way has finished (tests, benchmarks). */
  compacted(): Promise<void>;
  close(): Promise<void>;

  /** committed changes in commit order (change streams) */
  readonly changes: ChangeLog;

  /** the plan of the most recent find/count/distinct/update/delete/findAndModify/aggregate $match (optional) */
  lastPlan?: QueryPlan;
  /** documents fetched by queries on a collection since it was loaded (optional observation) */
  docsExamined?(db: string, coll: string): number;
  /** removes expired TTL documents now (the engine also does this every ttlIntervalMs); returns how many */
  sweepTtl?(): Promise<number>;
}

/** An error with MongoDB's numeric code and codeName, e.g. new StoreError(11000, "DuplicateKey", "E11000 ...") */
export class StoreError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    /** extra fields to put in the reply, e.g. { keyPattern, keyValue } for duplicate keys */
    readonly extra: Document = {},
  ) {
    super(message);
    this.name = "StoreError";
  }
}
