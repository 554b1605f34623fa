/**
 * The embedded store's storage engine: databases of collections held in memory, made durable by a write-ahead
 * log and snapshots (storage.ts) when a dbpath is given.
 *
 * Every mutating method applies its changes synchronously and appends their log records, then writes the log
 * (fs.writeSync) before its promise resolves, so an acknowledged write survives a crash of the process.
 */
import { randomUUID } from "node:crypto";
import { Binary, calculateObjectSize, type Document } from "bson";
import { checkPipeline, countShortcut, NON_MUTATING_STAGES } from "./aggregate";
import { Collection, type Index } from "./collection";
import {
  badValue,
  cannotCreateIndex,
  failedToParse,
  illegalOperation,
  indexKeySpecsConflict,
  indexNotFound,
  indexOptionsConflict,
  invalidNamespace,
  invalidOptions,
  location,
  namespaceExists,
  namespaceNotFound,
} from "./errors";
import { DATE_TYPE, deepClone, encodeKey, isPlainObject, KEY_END, valuesAtPath } from "./keys";
import { Aggregator } from "./mingo-context";
import {
  applyProjection,
  compileFilter,
  MINGO_OPTIONS,
  mapMingoError,
  parseSort,
  rejectJavaScript,
  sortDocs,
} from "./query";
import { Storage } from "./storage";
import {
  type CollectionInfo,
  type CollStats,
  type DbStats,
  type DeleteResult,
  type DeleteStatement,
  type Engine,
  type EngineOptions,
  type FindAndModifyArgs,
  type FindAndModifyResult,
  type FindOptions,
  type IndexSpec,
  type InsertResult,
  type QueryPlan,
  StoreError,
  type UpdateResult,
  type UpdateStatement,
  type WriteError,
} from "./types";
import {
  applyUpdate,
  checkArrayFilters,
  checkId,
  type PreparedUpdate,
  prepareUpdate,
  upsertBase,
  withId,
} from "./update";

const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;
const DEFAULT_TTL_MS = 60_000;

const UNSUPPORTED_COLLECTION_OPTIONS = [
  "capped",
  "viewOn",
  "pipeline",
  "timeseries",
  "clusteredIndex",
  "validator",
  "changeStreamPreAndPostImages",
];

function toWriteError(index: number, e: unknown): WriteError {
  if (e instanceof StoreError) {
    const we: WriteError = { index, code: e.code, errmsg: e.message };
    if (e.extra.keyPattern) we.keyPattern = e.extra.keyPattern as Document;
    if (e.extra.keyValue) we.keyValue = e.extra.keyValue as Document;
    return we;
  }
  return { index, code: 1, errmsg: e instanceof Error ? e.message : String(e) };
}

function checkDbName(db: string): void {
  if (!db || /[/\\. "$\0]/.test(db) || db.length > 63)
    throw invalidNamespace(`Invalid database name: '${db}'`);
}

function checkCollName(db: string, name: string): void {
  if (typeof name !== "string" || name.length === 0)
    throw invalidNamespace(`Invalid namespace specified '${db}.'`);
  if (name.includes("$") || name.includes("\0") || name.startsWith("."))
    throw invalidNamespace(`Invalid collection name: ${name}`);
}

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  const pick = (s: IndexSpec) =>
    encodeKey({
      unique: s.unique === true,
      sparse: s.sparse === true,
      partial: s.partialFilterExpression ?? null,
      ttl: s.expireAfterSeconds ?? null,
      collation: s.collation ?? null,
    });
  return pick(a) === pick(b);
}

/** stable text of an index key pattern (1 and 1.0 alike) */
function keyText(key: Document): string {
  return encodeKey(key);
}

function docSize(doc: Document): number {
  return calculateObjectSize(doc, { ignoreUndefined: true });
}

export class EmbeddedEngine implements Engine {
  private readonly dbs = new Map<string, Map<string, Collection>>();
  private storage?: Storage;
  private ttlTimer?: NodeJS.Timeout;
  private closed = false;
  private compaction: Promise<void> | null = null;
  lastPlan?: QueryPlan;

  constructor(private readonly options: EngineOptions) {}

  /** Opens the data directory (lock, recovery) and starts the TTL monitor. */
  open(): void {
    if (this.options.dbpath) {
      const storage = new Storage(this.options.dbpath, this.options.fsync === true);
      storage.lock();
      try {
        storage.recover((rec) => this.replay(rec));
      } catch (e) {
        storage.close();
        throw e;
      }
      this.storage = storage;
    }
    const every = this.options.ttlIntervalMs ?? DEFAULT_TTL_MS;
    this.ttlTimer = setInterval(() => {
      void this.sweepTtl().catch(() => undefined);
    }, every);
    this.ttlTimer.unref();
  }

  // ---------------------------------------------------------------- durability

  private log(rec: Document): void {
    this.storage?.append(rec);
  }

  /** writes the log before acknowledging; compacts when it has grown too large */
  private commit(): void {
    const s = this.storage;
    if (!s) return;
    s.flush();
    if (
      !this.compaction &&
      s.bytesSinceSnapshot > (this.options.compactAfterBytes ?? DEFAULT_COMPACT_BYTES)
    ) {
      this.compaction = this.compact(s).finally(() => {
        this.compaction = null;
      });
    }
  }

  /**
   * Folds the logs into a new snapshot without stopping the store. The state is captured at once (documents
   * are never modified in place: an update stores a new object, so the captured references stay a view of this
   * moment), writes go on into a new log generation, and the snapshot is written a slice at a time between
   * other work. Until it is renamed into place, the previous snapshot and every log after it still recover
   * everything; a failure leaves them and compaction is tried again later.
   */
  private async compact(s: Storage): Promise<void> {
    const state = this.captureState();
    try {
      const gen = s.rotate();
      await s.writeSnapshot(gen, state, () => this.closed);
    } catch (e) {
      process.emitWarning(
        `embedded store: compaction failed, the log is kept and compaction tried again later: ${(e as Error).message}`,
      );
    }
  }

  /** The full state as snapshot records, as of now (see compact()). */
  private captureState(): Iterable<Document> {
    const colls = [...this.dbs].flatMap(([db, m]) =>
      [...m.values()].map((c) => ({
        db,
        head: [
          { o: "cc", db, c: c.name, opts: c.options, uuid: c.uuid },
          ...[...c.indexes.values()]
            .filter((i) => !i.isId)
            .map((i) => ({ o: "ci", db, c: c.name, spec: i.spec })),
        ],
        name: c.name,
        docs: [...c.docs.values()],
      })),
    );
    return (function* () {
      for (const c of colls) {
        yield* c.head;
        for (const d of c.docs) yield { o: "i", db: c.db, c: c.name, d };
      }
    })();
  }

  /** Resolves when a compaction under way has finished (tests, benchmarks). */
  async compacted(): Promise<void> {
    await this.compaction;
  }

  private replay(rec: Document): void {
    const db = rec.db as string;
    const name = rec.c as string;
    switch (rec.o) {
      case "cc":
        if (!this.coll(db, name)) this.newCollection(db, name, (rec.opts as Document) ?? {}, rec.uuid);
        return;
      case "dc":
        this.dbs.get(db)?.delete(name);
        return;
      case "dd":
        this.dbs.delete(db);
        return;
      case "ci": {
        const c = this.coll(db, name) ?? this.newCollection(db, name, {});
        const spec = rec.spec as IndexSpec;
        if (!c.indexes.has(spec.name)) c.addIndex(spec);
        return;
      }
      case "di":
        this.coll(db, name)?.indexes.delete(rec.name as string);
        return;
      case "i":
      case "u": {
        const c = this.coll(db, name) ?? this.newCollection(db, name, {});
        const d = rec.d as Document;
        const old = c.getById(d._id);
        if (old) c.replace(old, d, docSize(d) - docSize(old));
        else c.insert(d, docSize(d));
        return;
      }
      case "r": {
        const c = this.coll(db, name);
        const old = c?.getById(rec.id);
        if (c && old) c.remove(old, docSize(old));
        return;
      }
      case "clr":
        this.coll(db, name)?.clear();
        return;
      case "rn": {
        const c = this.coll(db, name);
        if (!c) return;
        this.dbs.get(db)?.delete(name);
        this.dbs.get(rec.toDb as string)?.delete(rec.to as string);
        c.db = rec.toDb as string;
        c.name = rec.to as string;
        this.database(c.db).set(c.name, c);
        return;
      }
    }
  }

  // ---------------------------------------------------------------- namespaces

  private database(db: string): Map<string, Collection> {
    let m = this.dbs.get(db);
    if (!m) {
      m = new Map();
      this.dbs.set(db, m);
    }
    return m;
  }

  private coll(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  private newCollection(db: string, name: string, options: Document, uuid?: unknown): Collection {
    const c = new Collection(
      db,
      name,
      options,
      uuid ?? new Binary(Buffer.from(randomUUID().replace(/-/g, ""), "hex"), 4),
    );
    this.database(db).set(name, c);
    return c;
  }

  private ensureCollection(db: string, name: string): { c: Collection; created: boolean } {
    const existing = this.coll(db, name);
    if (existing) return { c: existing, created: false };
    checkDbName(db);
    checkCollName(db, name);
    const c = this.newCollection(db, name, {});
    this.log({ o: "cc", db, c: name, opts: {}, uuid: c.uuid });
    return { c, created: true };
  }

  private check(): void {
    if (this.closed) throw new StoreError(91, "ShutdownInProgress", "The embedded store has been closed");
  }

  listDatabases(): { name: string; sizeOnDisk: number; empty: boolean }[] {
    const out: { name: string; sizeOnDisk: number; empty: boolean }[] = [];
    for (const [name, colls] of this.dbs) {
      if (colls.size === 0) continue;
      let size = 0;
      for (const c of colls.values()) size += c.dataSize;
      out.push({ name, sizeOnDisk: size, empty: false });
    }
    return out;
  }

  async dropDatabase(db: string): Promise<void> {
    this.check();
    if (!this.dbs.has(db)) return;
    this.dbs.delete(db);
    this.log({ o: "dd", db });
    this.commit();
  }

  listCollections(db: string, filter?: Document): CollectionInfo[] {
    const colls = this.dbs.get(db);
    if (!colls) return [];
    const infos: CollectionInfo[] = [];
    for (const c of colls.values()) {
      infos.push({
        name: c.name,
        type: "collection",
        options: c.options,
        info: { readOnly: false, uuid: c.uuid },
        idIndex: { v: 2, key: { _id: 1 }, name: "_id_" },
      });
    }
    if (!filter || Object.keys(filter).length === 0) return infos;
    const m = compileFilter(filter);
    return infos.filter((i) => m(i as unknown as Document));
  }

  async createCollection(db: string, name: string, options: Document = {}): Promise<void> {
    this.check();
    checkDbName(db);
    checkCollName(db, name);
    if (this.coll(db, name)) throw namespaceExists(`Collection ${db}.${name} already exists.`);
    for (const k of UNSUPPORTED_COLLECTION_OPTIONS) {
      if (options[k] !== undefined && options[k] !== false)
        throw invalidOptions(`The collection option '${k}' is not supported by the embedded store`);
    }
    if (
      options.collation !== undefined &&
      !(isPlainObject(options.collation) && options.collation.locale === "simple")
    )
      throw invalidOptions(
        `collations other than { locale: "simple" } are not supported by the embedded store`,
      );
    const c = this.newCollection(db, name, options);
    this.log({ o: "cc", db, c: name, opts: options, uuid: c.uuid });
    this.commit();
  }

  async dropCollection(db: string, name: string): Promise<boolean> {
    this.check();
    const colls = this.dbs.get(db);
    if (!colls?.has(name)) return false;
    colls.delete(name);
    if (colls.size === 0) this.dbs.delete(db);
    this.log({ o: "dc", db, c: name });
    this.commit();
    return true;
  }

  async renameCollection(
    db: string,
    from: string,
    toDb: string,
    to: string,
    dropTarget: boolean,
  ): Promise<void> {
    this.check();
    const c = this.coll(db, from);
    if (!c) throw namespaceNotFound(`Source collection ${db}.${from} does not exist`);
    checkDbName(toDb);
    checkCollName(toDb, to);
    if (db === toDb && from === to) throw illegalOperation("Can't rename a collection to itself");
    if (this.coll(toDb, to)) {
      if (!dropTarget) throw namespaceExists("target namespace exists");
      this.dbs.get(toDb)?.delete(to);
    }
    this.dbs.get(db)?.delete(from);
    c.db = toDb;
    c.name = to;
    this.database(toDb).set(to, c);
    this.log({ o: "rn", db, c: from, toDb, to });
    this.commit();
  }

  // ---------------------------------------------------------------- indexes

  async createIndexes(
    db: string,
    collName: string,
    specs: IndexSpec[],
  ): Promise<{ createdCollectionAutomatically: boolean; numIndexesBefore: number; numIndexesAfter: number }> {
    this.check();
    if (!Array.isArray(specs) || specs.length === 0)
      throw badValue("Must specify at least one index to create");
    // validate everything before creating anything
    const normalized: IndexSpec[] = [];
    for (const raw of specs) {
      if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0)
        throw cannotCreateIndex("Index keys cannot be empty.");
      if (typeof raw.name !== "string" || raw.name === "")
        throw cannotCreateIndex(
          `Error in specification ${JSON.stringify(raw)} :: caused by :: The index name cannot be empty`,
        );
      for (const [field, dir] of Object.entries(raw.key)) {
        if (dir === "text")
          throw cannotCreateIndex(
            `text indexes are not supported by the embedded store (index ${raw.name}); use the knowledge search service instead`,
          );
        if (typeof dir === "string")
          throw cannotCreateIndex(
            `'${dir}' indexes are not supported by the embedded store (index ${raw.name})`,
          );
        if (typeof dir !== "number" || (dir as number) === 0 || Number.isNaN(dir))
          throw cannotCreateIndex(`Values in the index key pattern can only be 1 or -1 (field ${field})`);
      }
      if (raw.expireAfterSeconds !== undefined) {
        const s = Number(raw.expireAfterSeconds);
        if (!Number.isFinite(s) || s < 0)
          throw cannotCreateIndex(
            `TTL index 'expireAfterSeconds' option must be a non-negative number, got ${String(raw.expireAfterSeconds)}`,
          );
      }
      if (raw.collation !== undefined && !(isPlainObject(raw.collation) && raw.collation.locale === "simple"))
        throw cannotCreateIndex(
          `index ${raw.name}: collations other than { locale: "simple" } are not supported by the embedded store (keys compare binary)`,
        );
      if (raw.partialFilterExpression !== undefined && !isPlainObject(raw.partialFilterExpression))
        throw cannotCreateIndex("partialFilterExpression must be an object");
      const { v: _v, ns: _ns, key, name, ...rest } = raw as IndexSpec & { v?: unknown; ns?: unknown };
      const spec: IndexSpec = { v: 2, key: { ...key }, name, ...rest };
      if (spec.name === "_id_" && keyText(spec.key) !== keyText({ _id: 1 }))
        throw indexKeySpecsConflict("The index name '_id_' is reserved for the _id index");
      normalized.push(spec);
    }
    const { c, created } = this.ensureCollection(db, collName);
    const before = c.indexes.size;
    const added: IndexSpec[] = [];
    try {
      this.buildIndexes(c, normalized, added);
    } catch (e) {
      for (const a of added) c.indexes.delete(a.name);
      throw e;
    }
    for (const spec of added) this.log({ o: "ci", db, c: collName, spec });
    this.commit();
    return {
      createdCollectionAutomatically: created,
      numIndexesBefore: before,
      numIndexesAfter: c.indexes.size,
    };
  }

  /** creates the indexes that do not exist yet, in order; pushes each created spec to `added` */
  private buildIndexes(c: Collection, normalized: IndexSpec[], added: IndexSpec[]): void {
    for (const spec of normalized) {
      const byName = c.indexes.get(spec.name);
      if (byName) {
        if (keyText(byName.spec.key) !== keyText(spec.key))
          throw indexKeySpecsConflict(
            `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
          );
        if (!byName.isId && !sameOptions(byName.spec, spec))
          throw indexOptionsConflict(
            `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
          );
        continue;
      }
      let sameKey: Index | undefined;
      for (const idx of c.indexes.values()) if (keyText(idx.spec.key) === keyText(spec.key)) sameKey = idx;
      if (
        sameKey &&
        encodeKey(sameKey.spec.partialFilterExpression ?? null) ===
          encodeKey(spec.partialFilterExpression ?? null)
      ) {
        throw indexOptionsConflict(
          sameOptions(sameKey.spec, spec)
            ? `Index already exists with a different name: ${sameKey.spec.name}`
            : `An existing index has the same key pattern but different options: requested ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKey.spec)}`,
        );
      }
      c.addIndex(spec);
      added.push(spec);
    }
  }

  listIndexes(db: string, collName: string): IndexSpec[] {
    const c = this.coll(db, collName);
    if (!c) throw namespaceNotFound(`ns does not exist: ${db}.${collName}`);
    return [...c.indexes.values()].map((i) => i.spec);
  }

  async dropIndexes(
    db: string,
    collName: string,
    index: string | string[] | Document,
  ): Promise<{ nIndexesWas: number }> {
    this.check();
    const c = this.coll(db, collName);
    if (!c) throw namespaceNotFound(`ns not found ${db}.${collName}`);
    const was = c.indexes.size;
    let names: string[];
    if (index === "*") names = [...c.indexes.keys()].filter((n) => n !== "_id_");
    else if (typeof index === "string") names = [index];
    else if (Array.isArray(index)) names = index.map(String);
    else if (isPlainObject(index)) {
      const found = [...c.indexes.values()].find((i) => keyText(i.spec.key) === keyText(index));
      if (!found) throw indexNotFound(`can't find index with key: ${JSON.stringify(index)}`);
      names = [found.spec.name];
    } else throw badValue("dropIndexes: index must be a string, an array of strings or a key pattern");
    for (const n of names) {
      if (n === "_id_") throw invalidOptions("cannot drop _id index");
      if (!c.indexes.has(n)) throw indexNotFound(`index not found with name [${n}]`);
    }
    for (const n of names) {
      c.indexes.delete(n);
      this.log({ o: "di", db, c: collName, name: n });
    }
    this.commit();
    return { nIndexesWas: was };
  }

  // ---------------------------------------------------------------- writes

  async insert(db: string, collName: string, docs: Document[], ordered: boolean): Promise<InsertResult> {
    this.check();
    const { c } = this.ensureCollection(db, collName);
    const writeErrors: WriteError[] = [];
    let n = 0;
    try {
      for (let i = 0; i < docs.length; i++) {
        try {
          const raw = docs[i];
          if (!isPlainObject(raw)) throw badValue("a document to insert must be an object");
          const doc = withId(raw);
          checkId(doc._id);
          c.insert(doc, docSize(doc));
          this.log({ o: "i", db, c: collName, d: doc });
          n++;
        } catch (e) {
          writeErrors.push(toWriteError(i, e));
          if (ordered) break;
        }
      }
    } finally {
      this.commit();
    }
    return { n, writeErrors };
  }

  /** matching documents in plan order (all of them, or the first `max`) */
  private matchDocs(
    c: Collection,
    filter: Document | undefined,
    max = 0,
    sort?: Document,
    hint?: string | Document,
  ): Document[] {
    const matcher = compileFilter(filter);
    let sortSpec = parseSort(sort as FindOptions["sort"]);
    if (sortSpec.length > 0 && sortSpec[0][0] === "$natural") {
      // natural order is insertion order; reversed it needs every match first
      const reverse = sortSpec[0][1] === -1;
      sortSpec = [];
      if (reverse)
        return this.matchDocs(c, filter, 0, undefined, hint)
          .reverse()
          .slice(0, max > 0 ? max : undefined);
    }
    const { plan, candidates } = c.plan(filter, sortSpec, hint);
    const out: Document[] = [];
    const stopEarly = max > 0 && (sortSpec.length === 0 || plan.sortedByIndex === true);
    for (const d of candidates) {
      if (!matcher(d)) continue;
      out.push(d);
      if (stopEarly && out.length >= max) break;
    }
    if (sortSpec.length > 0 && !plan.sortedByIndex) sortDocs(out, sortSpec);
    plan.nReturned = max > 0 ? Math.min(max, out.length) : out.length;
    this.lastPlan = plan;
    return max > 0 && out.length > max ? out.slice(0, max) : out;
  }

  private replaceDoc(c: Collection, db: string, oldDoc: Document, newDoc: Document): void {
    c.replace(oldDoc, newDoc, docSize(newDoc) - docSize(oldDoc));
    this.log({ o: "u", db, c: c.name, d: newDoc });
  }

  private insertNew(c: Collection, db: string, doc: Document): void {
    checkId(doc._id);
    c.insert(doc, docSize(doc));
    this.log({ o: "i", db, c: c.name, d: doc });
  }

  private removeDoc(c: Collection, db: string, doc: Document): void {
    c.remove(doc, docSize(doc));
    this.log({ o: "r", db, c: c.name, id: doc._id });
  }

  /** the document an upsert inserts */
  private buildUpsert(
    q: Document | undefined,
    prepared: PreparedUpdate,
    arrayFilters?: Document[],
  ): Document {
    const base = upsertBase(q);
    if (prepared.kind === "replacement") {
      const repl = prepared.update as Document;
      const doc = { ...repl };
      if (doc._id === undefined && base._id !== undefined) doc._id = base._id;
      return withId(doc);
    }
    const { doc } = applyUpdate(base, prepared, { arrayFilters, query: q, insert: true });
    return withId(doc);
  }

  async update(
    db: string,
    collName: string,
    updates: UpdateStatement[],
    ordered: boolean,
  ): Promise<UpdateResult> {
    this.check();
    const res: UpdateResult = { n: 0, nModified: 0, upserted: [], writeErrors: [] };
    try {
      for (let i = 0; i < updates.length; i++) {
        const st = updates[i];
        try {
          const prepared = prepareUpdate(st.u);
          checkArrayFilters(prepared, st.arrayFilters);
          if (st.multi && prepared.kind === "replacement" && Object.keys(st.u).length > 0)
            throw failedToParse("multi update is not supported for replacement-style update");
          let c = this.coll(db, collName);
          if (!c) compileFilter(st.q);
          const matches = c ? this.matchDocs(c, st.q, st.multi ? 0 : 1, undefined, st.hint) : [];
          if (matches.length === 0) {
            if (st.upsert) {
              const doc = this.buildUpsert(st.q, prepared, st.arrayFilters);
              c ??= this.ensureCollection(db, collName).c;
              this.insertNew(c, db, doc);
              res.n += 1;
              res.upserted.push({ index: i, _id: doc._id });
            }
            continue;
          }
          for (const d of matches) {
            const { doc, modified } = applyUpdate(d, prepared, {
              arrayFilters: st.arrayFilters,
              query: st.q,
            });
            if (modified && c) {
              this.replaceDoc(c, db, d, doc);
              res.nModified += 1;
            }
            res.n += 1;
          }
        } catch (e) {
          res.writeErrors.push(toWriteError(i, e));
          if (ordered) break;
        }
      }
    } finally {
      this.commit();
    }
    return res;
  }

  async delete(
    db: string,
    collName: string,
    deletes: DeleteStatement[],
    ordered: boolean,
  ): Promise<DeleteResult> {
    this.check();
    const res: DeleteResult = { n: 0, writeErrors: [] };
    try {
      for (let i = 0; i < deletes.length; i++) {
        const st = deletes[i];
        try {
          const c = this.coll(db, collName);
          if (!c) {
            compileFilter(st.q);
            continue;
          }
          const matches = this.matchDocs(c, st.q, st.limit === 1 ? 1 : 0, undefined, st.hint);
          for (const d of matches) {
            this.removeDoc(c, db, d);
            res.n += 1;
          }
        } catch (e) {
          res.writeErrors.push(toWriteError(i, e));
          if (ordered) break;
        }
      }
    } finally {
      this.commit();
    }
    return res;
  }

  async findAndModify(db: string, collName: string, args: FindAndModifyArgs): Promise<FindAndModifyResult> {
    this.check();
    const remove = args.remove === true;
    if (remove && args.update !== undefined)
      throw failedToParse("Cannot specify both an update and remove=true");
    if (!remove && args.update === undefined)
      throw failedToParse("Either an update or remove=true must be specified");
    if (remove && args.upsert) throw failedToParse("Cannot specify both upsert=true and remove=true ");
    if (remove && args.new)
      throw failedToParse(
        "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
      );
    const project = (d: Document | null) =>
      d && args.fields ? applyProjection([d], args.fields, args.query)[0] : d;
    try {
      let c = this.coll(db, collName);
      const prepared = remove ? undefined : prepareUpdate(args.update as Document | Document[]);
      if (prepared) checkArrayFilters(prepared, args.arrayFilters);
      if (!c) compileFilter(args.query);
      const found = c ? this.matchDocs(c, args.query, 1, args.sort)[0] : undefined;
      if (!found) {
        if (!remove && args.upsert && prepared) {
          const doc = this.buildUpsert(args.query, prepared, args.arrayFilters);
          c ??= this.ensureCollection(db, collName).c;
          this.insertNew(c, db, doc);
          return {
            value: args.new ? project(doc) : null,
            lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
          };
        }
        return { value: null, lastErrorObject: remove ? { n: 0 } : { n: 0, updatedExisting: false } };
      }
      if (remove || !prepared || !c) {
        if (c) this.removeDoc(c, db, found);
        return { value: project(found), lastErrorObject: { n: 1 } };
      }
      const { doc, modified } = applyUpdate(found, prepared, {
        arrayFilters: args.arrayFilters,
        query: args.query,
      });
      if (modified) this.replaceDoc(c, db, found, doc);
      return { value: project(args.new ? doc : found), lastErrorObject: { n: 1, updatedExisting: true } };
    } finally {
      this.commit();
    }
  }

  // ---------------------------------------------------------------- reads

  find(db: string, collName: string, options: FindOptions): Document[] {
    const c = this.coll(db, collName);
    const skip = Math.max(0, options.skip ?? 0);
    const limit = Math.abs(options.limit ?? 0);
    if (!c) {
      compileFilter(options.filter);
      parseSort(options.sort);
      this.lastPlan = {
        collection: `${db}.${collName}`,
        stage: "COLLSCAN",
        index: null,
        keysExamined: 0,
        docsExamined: 0,
        nReturned: 0,
      };
      return [];
    }
    const docs = this.matchDocs(c, options.filter, limit > 0 ? skip + limit : 0, options.sort, options.hint);
    const page = skip > 0 || limit > 0 ? docs.slice(skip, limit > 0 ? skip + limit : undefined) : docs;
    if (this.lastPlan) this.lastPlan.nReturned = page.length;
    return applyProjection(page, options.projection, options.filter);
  }

  count(db: string, collName: string, query?: Document, skip = 0, limit = 0): number {
    const c = this.coll(db, collName);
    if (!c) {
      compileFilter(query);
      return 0;
    }
    let n: number;
    if (!query || Object.keys(query).length === 0) n = c.docs.size;
    else n = this.matchDocs(c, query, limit > 0 ? skip + limit : 0).length;
    n = Math.max(0, n - Math.max(0, skip));
    return limit > 0 ? Math.min(n, Math.abs(limit)) : n;
  }

  distinct(db: string, collName: string, key: string, query?: Document): unknown[] {
    if (typeof key !== "string" || key === "") throw failedToParse("distinct key must be a non-empty string");
    const c = this.coll(db, collName);
    if (!c) {
      compileFilter(query);
      return [];
    }
    const seen = new Map<string, unknown>();
    for (const d of this.matchDocs(c, query)) {
      for (const v of valuesAtPath(d, key)) {
        if (v === undefined) continue;
        const k = encodeKey(v);
        if (!seen.has(k)) seen.set(k, v);
      }
    }
    return [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, v]) => v);
  }

  async aggregate(db: string, collName: string | null, pipeline: Document[]): Promise<Document[]> {
    this.check();
    if (!Array.isArray(pipeline)) throw failedToParse("'pipeline' option must be specified as an array");
    const stages = checkPipeline(pipeline);
    rejectJavaScript(pipeline);
    let body = pipeline;
    const last = stages[stages.length - 1];
    const writeStage = last === "$out" || last === "$merge" ? pipeline[pipeline.length - 1] : undefined;
    if (writeStage) body = pipeline.slice(0, -1);

    let input: Document[];
    if (collName === null || stages[0] === "$documents") {
      if (stages[0] !== "$documents")
        throw invalidNamespace(
          "{aggregate: 1} is not valid for a pipeline that does not start with a collection-less stage such as $documents",
        );
      input = [];
    } else {
      const c = this.coll(db, collName);
      if (!c) input = [];
      else {
        // a leading $match / $sort (/ $skip / $limit) runs through the query planner, so it can use indexes
        let i = 0;
        let filter: Document | undefined;
        let sort: Document | undefined;
        if (isPlainObject(body[0]?.$match)) filter = body[i++].$match as Document;
        if (isPlainObject(body[i]?.$sort)) sort = body[i++].$sort as Document;
        let max = 0;
        if (sort) {
          let skip = 0;
          for (let j = i; j < body.length; j++) {
            if (typeof body[j].$skip === "number") skip += body[j].$skip as number;
            else {
              if (typeof body[j].$limit === "number" && (body[j].$limit as number) > 0)
                max = skip + (body[j].$limit as number);
              break;
            }
          }
        }
        if (filter || sort) {
          input = this.matchDocs(c, filter, max, sort);
          body = body.slice(i);
        } else input = [...c.docs.values()];
      }
    }
    const counted = countShortcut(body, input);
    if (counted) return counted;
    const bodyStages = body.map((s) => Object.keys(s)[0]);
    if (!bodyStages.every((s) => NON_MUTATING_STAGES.has(s))) input = input.map((d) => deepClone(d));
    let result: Document[];
    try {
      result = new Aggregator(body, {
        ...MINGO_OPTIONS,
        collectionResolver: (name: string) => {
          const other = this.coll(db, name);
          return other ? [...other.docs.values()].map((d) => deepClone(d)) : [];
        },
      }).run(input) as Document[];
    } catch (e) {
      throw mapMingoError(e, "aggregate");
    }
    if (!writeStage) return result;
    try {
      if (last === "$out") this.writeOut(db, writeStage.$out, result);
      else this.writeMerge(db, writeStage.$merge, result);
    } finally {
      this.commit();
    }
    return [];
  }

  private target(db: string, spec: unknown, stage: string): { db: string; coll: string } {
    if (typeof spec === "string") return { db, coll: spec };
    if (isPlainObject(spec) && typeof spec.coll === "string")
      return { db: typeof spec.db === "string" ? spec.db : db, coll: spec.coll };
    throw failedToParse(`${stage} needs a collection name or {db, coll}`);
  }

  private writeOut(db: string, spec: unknown, docs: Document[]): void {
    const t = this.target(db, spec, "$out");
    const { c } = this.ensureCollection(t.db, t.coll);
    // check the whole result against the target's unique indexes before replacing the contents
    const scratch = new Collection(t.db, t.coll);
    for (const idx of c.indexes.values()) if (!idx.isId) scratch.addIndex(idx.spec);
    const prepared = docs.map((d) => withId(d));
    for (const d of prepared) scratch.insert(d, 0);
    c.clear();
    this.log({ o: "clr", db: t.db, c: t.coll });
    for (const d of prepared) this.insertNew(c, t.db, d);
  }

  private writeMerge(db: string, spec: unknown, docs: Document[]): void {
    const s = isPlainObject(spec) ? spec : { into: spec };
    const t = this.target(db, s.into, "$merge");
    const on = s.on === undefined ? ["_id"] : Array.isArray(s.on) ? (s.on as string[]) : [String(s.on)];
    const whenMatched = s.whenMatched ?? "merge";
    const whenNotMatched = s.whenNotMatched ?? "insert";
    if (typeof whenMatched !== "string")
      throw location(51191, "$merge with a pipeline for whenMatched is not supported by the embedded store");
    const { c } = this.ensureCollection(t.db, t.coll);
    for (const raw of docs) {
      const d = withId(raw);
      const q: Document = {};
      for (const f of on) q[f] = valuesAtPath(d, f, false)[0] ?? null;
      const existing = this.matchDocs(c, q, 1)[0];
      if (existing) {
        if (whenMatched === "fail")
          throw new StoreError(
            11000,
            "DuplicateKey",
            `$merge failed: a document with ${JSON.stringify(q)} already exists`,
          );
        if (whenMatched === "keepExisting") continue;
        const next =
          whenMatched === "replace" ? { ...d, _id: existing._id } : { ...existing, ...d, _id: existing._id };
        this.replaceDoc(c, t.db, existing, withId(next));
      } else {
        if (whenNotMatched === "discard") continue;
        if (whenNotMatched === "fail")
          throw location(13113, "$merge could not find a matching document in the target collection");
        this.insertNew(c, t.db, d);
      }
    }
  }

  dbStats(db: string): DbStats {
    const colls = [...(this.dbs.get(db)?.values() ?? [])];
    const objects = colls.reduce((n, c) => n + c.docs.size, 0);
    const dataSize = colls.reduce((n, c) => n + c.dataSize, 0);
    const indexes = colls.reduce((n, c) => n + c.indexes.size, 0);
    const indexSize = colls.reduce((n, c) => n + this.indexBytes(c), 0);
    return {
      db,
      collections: colls.length,
      views: 0,
      objects,
      avgObjSize: objects ? dataSize / objects : 0,
      dataSize,
      storageSize: dataSize,
      indexes,
      indexSize,
    };
  }

  private indexBytes(c: Collection): number {
    let n = 0;
    for (const idx of c.indexes.values()) n += idx.tree.size * 32;
    return n;
  }

  collStats(db: string, collName: string): CollStats {
    const c = this.coll(db, collName);
    if (!c) throw namespaceNotFound(`Collection [${db}.${collName}] not found.`);
    const indexSizes: Record<string, number> = {};
    for (const [name, idx] of c.indexes) indexSizes[name] = idx.tree.size * 32;
    return {
      ns: c.ns,
      count: c.docs.size,
      size: c.dataSize,
      avgObjSize: c.docs.size ? c.dataSize / c.docs.size : 0,
      storageSize: c.dataSize,
      nindexes: c.indexes.size,
      totalIndexSize: this.indexBytes(c),
      indexSizes,
    };
  }

  docsExamined(db: string, collName: string): number {
    return this.coll(db, collName)?.docsExamined ?? 0;
  }

  /** Removes documents whose TTL-indexed date (the earliest, for arrays) is older than expireAfterSeconds. */
  async sweepTtl(): Promise<number> {
    if (this.closed) return 0;
    const now = Date.now();
    let removed = 0;
    try {
      for (const [db, colls] of this.dbs) {
        for (const c of colls.values()) {
          for (const idx of c.indexes.values()) {
            const secs = idx.spec.expireAfterSeconds;
            if (secs === undefined || idx.fields.length !== 1) continue;
            const cutoff = encodeKey(new Date(now - Number(secs) * 1000));
            const expired = new Set<Document>();
            for (const [k, d] of idx.tree.entries(DATE_TYPE)) {
              if (k >= cutoff + KEY_END) break;
              expired.add(d);
            }
            for (const d of expired) {
              if (c.getById(d._id) !== d) continue;
              this.removeDoc(c, db, d);
              removed++;
            }
          }
        }
      }
    } finally {
      this.commit();
    }
    return removed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ttlTimer) clearInterval(this.ttlTimer);
    await this.compaction; // stops at its next slice (the logs keep what it had not folded in)
    this.storage?.close();
    this.storage = undefined;
  }
}
