/**
 * The embedded store's storage engine: databases of collections held in memory (catalog.ts) and the commands
 * run on them, made durable by a write-ahead log and snapshots (storage.ts) when a dbpath is given.
 *
 * Every mutating method applies its changes synchronously and appends their log records, then writes the log
 * (fs.writeSync) before its promise resolves, so an acknowledged write survives a crash of the process.
 */
import type { Document } from "bson";
import { checkPipeline, countShortcut, leadingQuery, NON_MUTATING_STAGES } from "./aggregate";
import { checkCollectionOptions, checkCollName, checkDbName } from "./catalog";
import { EngineCore } from "./engine-core";
import {
  badValue,
  failedToParse,
  illegalOperation,
  invalidNamespace,
  namespaceExists,
  namespaceNotFound,
} from "./errors";
import { buildIndexes, indexNamesToDrop, normalizeIndexSpecs } from "./index-specs";
import { deepClone, encodeKey, isPlainObject, valuesAtPath } from "./keys";
import { Aggregator } from "./mingo-context";
import {
  applyProjection,
  compileFilter,
  MINGO_OPTIONS,
  mapMingoError,
  parseSort,
  rejectJavaScript,
} from "./query";
import {
  type CollectionInfo,
  type DeleteResult,
  type DeleteStatement,
  type Engine,
  type FindAndModifyArgs,
  type FindAndModifyResult,
  type FindOptions,
  type IndexSpec,
  type InsertResult,
  StoreError,
  type UpdateResult,
  type UpdateStatement,
  type WriteError,
} from "./types";
import { applyUpdate, checkArrayFilters, prepareUpdate, withId } from "./update";

function toWriteError(index: number, e: unknown): WriteError {
  if (e instanceof StoreError) {
    const we: WriteError = { index, code: e.code, errmsg: e.message };
    if (e.extra.keyPattern) we.keyPattern = e.extra.keyPattern as Document;
    if (e.extra.keyValue) we.keyValue = e.extra.keyValue as Document;
    return we;
  }
  return { index, code: 1, errmsg: e instanceof Error ? e.message : String(e) };
}

/** The Engine contract's commands, over the state and primitives of EngineCore (engine-core.ts). */
export class EmbeddedEngine extends EngineCore implements Engine {
  // ---------------------------------------------------------------- namespaces

  async dropDatabase(db: string): Promise<void> {
    this.check();
    const colls = this.dbs.get(db);
    if (!colls) return;
    this.dbs.delete(db);
    this.log({ o: "dd", db });
    for (const name of colls.keys()) this.noteNamespace("drop", db, name);
    this.noteNamespace("dropDatabase", db);
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
    checkCollectionOptions(options);
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
    this.noteNamespace("drop", db, name);
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
    this.noteNamespace("rename", db, from, { db: toDb, coll: to });
    this.commit();
  }

  // ---------------------------------------------------------------- indexes

  async createIndexes(
    db: string,
    collName: string,
    specs: IndexSpec[],
  ): Promise<{ createdCollectionAutomatically: boolean; numIndexesBefore: number; numIndexesAfter: number }> {
    this.check();
    const normalized = normalizeIndexSpecs(specs); // validate everything before creating anything
    const { c, created } = this.ensureCollection(db, collName);
    const before = c.indexes.size;
    const added: IndexSpec[] = [];
    try {
      buildIndexes(c, normalized, added);
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
    const names = indexNamesToDrop(c, index);
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
          this.insertNew(c, db, withId(raw));
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
              this.replaceDoc(c, db, d, doc, prepared.kind === "replacement" ? "replace" : "update");
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
      if (modified)
        this.replaceDoc(c, db, found, doc, prepared.kind === "replacement" ? "replace" : "update");
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
        const lead = leadingQuery(body);
        if (lead) {
          input = this.matchDocs(c, lead.filter, lead.max, lead.sort);
          body = body.slice(lead.stages);
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
}
