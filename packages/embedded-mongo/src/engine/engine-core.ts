/**
 * The engine's state and the primitives every command uses: the catalog, durable storage (log + commit), the
 * namespaces, query matching in plan order, document writes that log themselves, the TTL monitor and the
 * lifecycle. The commands themselves are in engine.ts.
 */
import type { Document } from "bson";
import { writeTarget } from "./aggregate";
import { Catalog, checkCollName, checkDbName, docSize } from "./catalog";
import { type ChangeEntry, ChangeLog } from "./changelog";
import { Collection } from "./collection";
import { captureState } from "./compaction";
import { location } from "./errors";
import { DATE_TYPE, encodeKey, isPlainObject, KEY_END, valuesAtPath } from "./keys";
import { compileFilter, parseSort, sortDocs } from "./query";
import { applyRecord } from "./recovery";
import { collStats, dbStats, listDatabases } from "./stats";
import { Storage } from "./storage";
import {
  type CollStats,
  type DbStats,
  type EngineOptions,
  type FindOptions,
  type QueryPlan,
  StoreError,
} from "./types";
import { applyUpdate, checkId, type PreparedUpdate, upsertBase, withId } from "./update";

/** how often expired TTL documents are removed by default (mongod: 60 s) */
export const DEFAULT_TTL_MS = 60_000;

export abstract class EngineCore {
  protected readonly catalog = new Catalog();
  protected readonly dbs = this.catalog.dbs;
  private storage?: Storage;
  private ttlTimer?: NodeJS.Timeout;
  protected closed = false;
  lastPlan?: QueryPlan;
  /** committed changes in order, for change streams (changelog.ts) */
  readonly changes: ChangeLog;

  constructor(private readonly options: EngineOptions) {
    this.changes = new ChangeLog(options.changeHistory);
  }

  /** Opens the data directory (permissions, lock, recovery) and starts the TTL monitor. */
  open(): void {
    if (this.options.dbpath) {
      this.storage = Storage.open(
        this.options.dbpath,
        { fsync: this.options.fsync, compactAfterBytes: this.options.compactAfterBytes },
        (rec) => applyRecord(this.catalog, rec),
        () => captureState(this.catalog),
      );
    }
    const every = this.options.ttlIntervalMs ?? DEFAULT_TTL_MS;
    this.ttlTimer = setInterval(() => {
      void this.sweepTtl().catch(() => undefined);
    }, every);
    this.ttlTimer.unref();
  }

  // ---------------------------------------------------------------- durability

  protected log(rec: Document): void {
    this.storage?.append(rec);
  }

  /**
   * Writes the log before acknowledging (compacting in the background when it has grown too large), then makes
   * the command's changes visible to change streams; a failed log write publishes nothing.
   */
  protected commit(): void {
    try {
      this.storage?.commit();
    } catch (e) {
      this.changes.discard();
      throw e;
    }
    this.changes.publish();
  }

  /** a namespace change for change streams (drop, rename, dropDatabase) */
  protected noteNamespace(op: ChangeEntry["op"], db: string, coll?: string, to?: ChangeEntry["to"]): void {
    this.changes.note({ op, db, coll, to, bytes: 0 });
  }

  /** Resolves when a compaction under way has finished (tests, benchmarks). */
  async compacted(): Promise<void> {
    await this.storage?.compacted();
  }

  // ---------------------------------------------------------------- namespaces

  protected database(db: string): Map<string, Collection> {
    return this.catalog.database(db);
  }

  protected coll(db: string, name: string): Collection | undefined {
    return this.catalog.coll(db, name);
  }

  protected newCollection(db: string, name: string, options: Document): Collection {
    return this.catalog.newCollection(db, name, options);
  }

  protected ensureCollection(db: string, name: string): { c: Collection; created: boolean } {
    const existing = this.coll(db, name);
    if (existing) return { c: existing, created: false };
    checkDbName(db);
    checkCollName(db, name);
    const c = this.newCollection(db, name, {});
    this.log({ o: "cc", db, c: name, opts: {}, uuid: c.uuid });
    return { c, created: true };
  }

  protected check(): void {
    if (this.closed) throw new StoreError(91, "ShutdownInProgress", "The embedded store has been closed");
  }

  listDatabases(): { name: string; sizeOnDisk: number; empty: boolean }[] {
    return listDatabases(this.catalog);
  }

  // ---------------------------------------------------------------- query matching and document writes

  /** matching documents in plan order (all of them, or the first `max`) */
  protected matchDocs(
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

  /** `op`: "replace" for a replacement document, "update" for update operators or a pipeline */
  protected replaceDoc(
    c: Collection,
    db: string,
    oldDoc: Document,
    newDoc: Document,
    op: "update" | "replace" = "update",
  ): void {
    const oldSize = docSize(oldDoc);
    const newSize = docSize(newDoc);
    c.replace(oldDoc, newDoc, newSize - oldSize);
    this.log({ o: "u", db, c: c.name, d: newDoc });
    const bytes = op === "update" ? oldSize + newSize : newSize;
    this.changes.note({ op, db, coll: c.name, id: newDoc._id, doc: newDoc, before: oldDoc, bytes });
  }

  protected insertNew(c: Collection, db: string, doc: Document): void {
    checkId(doc._id);
    const size = docSize(doc);
    c.insert(doc, size);
    this.log({ o: "i", db, c: c.name, d: doc });
    this.changes.note({ op: "insert", db, coll: c.name, id: doc._id, doc, bytes: size });
  }

  protected removeDoc(c: Collection, db: string, doc: Document): void {
    c.remove(doc, docSize(doc));
    this.log({ o: "r", db, c: c.name, id: doc._id });
    this.changes.note({ op: "delete", db, coll: c.name, id: doc._id, bytes: 0 });
  }

  /** the document an upsert inserts */
  protected buildUpsert(
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

  /** $out: replaces the target collection's contents with the result (checked against its unique indexes first) */
  protected writeOut(db: string, spec: unknown, docs: Document[]): void {
    const t = writeTarget(db, spec, "$out");
    const { c } = this.ensureCollection(t.db, t.coll);
    // check the whole result against the target's unique indexes before replacing the contents
    const scratch = new Collection(t.db, t.coll);
    for (const idx of c.indexes.values()) if (!idx.isId) scratch.addIndex(idx.spec);
    const prepared = docs.map((d) => withId(d));
    for (const d of prepared) scratch.insert(d, 0);
    c.clear();
    this.log({ o: "clr", db: t.db, c: t.coll });
    // MongoDB's $out replaces the target by a rename over it: its change streams see it dropped
    this.noteNamespace("drop", t.db, t.coll);
    for (const d of prepared) this.insertNew(c, t.db, d);
  }

  /** $merge: merges the result into the target collection by `on` (default _id) */
  protected writeMerge(db: string, spec: unknown, docs: Document[]): void {
    const s = isPlainObject(spec) ? spec : { into: spec };
    const t = writeTarget(db, s.into, "$merge");
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
        this.replaceDoc(c, t.db, existing, withId(next), whenMatched === "replace" ? "replace" : "update");
      } else {
        if (whenNotMatched === "discard") continue;
        if (whenNotMatched === "fail")
          throw location(13113, "$merge could not find a matching document in the target collection");
        this.insertNew(c, t.db, d);
      }
    }
  }
  dbStats(db: string): DbStats {
    return dbStats(this.catalog, db);
  }

  collStats(db: string, collName: string): CollStats {
    return collStats(this.catalog, db, collName);
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
    this.changes.close();
    if (this.ttlTimer) clearInterval(this.ttlTimer);
    const storage = this.storage;
    this.storage = undefined;
    await storage?.close(); // a compaction under way stops at its next slice (the logs keep the rest)
  }
}
