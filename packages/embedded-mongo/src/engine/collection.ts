/**
 * One collection: documents by canonical _id key, secondary indexes in B+trees, atomic per-document writes
 * (all unique constraints are checked before anything changes) and the query planner.
 */
import type { Document } from "bson";
import { type KeyTree, newKeyTree } from "./btree";
import { badValue, cannotCreateIndex } from "./errors";
import { encodeKey, formatValue, isPlainObject, normalizeNumbers, valuesAtPath } from "./keys";
import {
  type Candidate,
  chooseIndex,
  extractPredicates,
  type Interval,
  intervalsFor,
  sortsAfterEquality,
} from "./planner";
import { compileFilter, type Matcher } from "./query";
import { type IndexSpec, type QueryPlan, StoreError } from "./types";

interface KeyEntry {
  /** concatenated encodings of the indexed values */
  enc: string;
  values: unknown[];
}

export class Index {
  readonly fields: [string, number | string][];
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly partial: Matcher | null;
  readonly tree: KeyTree<Document> = newKeyTree<Document>();
  /** true once any document produced more than one key (arrays) */
  multikey = false;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.entries(spec.key);
    for (const [, dir] of this.fields) {
      if (dir === "text") throw cannotCreateIndex("text indexes are not supported by the embedded store");
      if (typeof dir === "string")
        throw cannotCreateIndex(
          `${dir} indexes are not supported by the embedded store (index ${spec.name})`,
        );
    }
    this.isId = spec.name === "_id_";
    this.unique = spec.unique === true || this.isId;
    this.sparse = spec.sparse === true;
    this.partial = spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression) : null;
  }

  readonly isId: boolean;

  /** the distinct keys a document has in this index; [] when the document is not indexed (sparse/partial) */
  keysFor(doc: Document): KeyEntry[] {
    if (this.partial && !this.partial(doc)) return [];
    const perField: unknown[][] = [];
    let present = false;
    for (const [path] of this.fields) {
      const vals = valuesAtPath(doc, path);
      if (vals.length > 0) present = true;
      perField.push(vals.length === 0 ? [null] : vals);
    }
    if (this.sparse && !present) return [];
    if (perField.filter((v) => v.length > 1).length > 1)
      throw new StoreError(
        171,
        "CannotIndexParallelArrays",
        `cannot index parallel arrays [${this.fields
          .filter((_, i) => perField[i].length > 1)
          .map(([p]) => p)
          .join("] [")}]`,
      );
    let combos: KeyEntry[] = [{ enc: "", values: [] }];
    for (const vals of perField) {
      const next: KeyEntry[] = [];
      for (const c of combos)
        for (const v of vals)
          next.push({ enc: c.enc + encodeKey(v), values: [...c.values, v === undefined ? null : v] });
      combos = next;
    }
    if (combos.length > 1) {
      const seen = new Set<string>();
      combos = combos.filter((c) => {
        if (seen.has(c.enc)) return false;
        seen.add(c.enc);
        return true;
      });
    }
    return combos;
  }

  /** the id key of another document holding this key, if any */
  conflict(enc: string, ownId: string): string | undefined {
    for (const [k] of this.tree.entries(enc)) {
      if (!k.startsWith(enc)) return undefined;
      const id = k.slice(enc.length);
      if (id !== ownId) return id;
    }
    return undefined;
  }

  describeDup(ns: string, entry: KeyEntry): StoreError {
    const keyValue: Document = {};
    this.fields.forEach(([p], i) => {
      keyValue[p] = entry.values[i];
    });
    const shown = this.fields.map(([p], i) => `${p}: ${formatValue(entry.values[i])}`).join(", ");
    return new StoreError(
      11000,
      "DuplicateKey",
      `E11000 duplicate key error collection: ${ns} index: ${this.spec.name} dup key: { ${shown} }`,
      { keyPattern: { ...this.spec.key }, keyValue },
    );
  }
}

export interface CandidatePlan {
  plan: QueryPlan;
  /** candidate documents (a superset of the matches), in index order when sortedBy is set */
  candidates: Iterable<Document>;
}

export class Collection {
  readonly docs = new Map<string, Document>();
  readonly indexes = new Map<string, Index>();
  /** approximate BSON bytes of all documents */
  dataSize = 0;
  /** documents fetched by queries since creation (observation for tests and explain) */
  docsExamined = 0;

  constructor(
    public db: string,
    public name: string,
    public options: Document = {},
    readonly uuid: unknown = undefined,
  ) {
    this.indexes.set("_id_", new Index({ v: 2, key: { _id: 1 }, name: "_id_" }));
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  /** Builds a new index over the existing documents; throws (and adds nothing) on a duplicate key. */
  addIndex(spec: IndexSpec): void {
    const idx = new Index(spec);
    if (idx.isId) {
      for (const [id, doc] of this.docs) idx.tree.set(id, doc);
      this.indexes.set(spec.name, idx);
      return;
    }
    for (const [id, doc] of this.docs) {
      const keys = idx.keysFor(doc);
      if (keys.length > 1) idx.multikey = true;
      for (const k of keys) {
        if (idx.unique && idx.conflict(k.enc, id) !== undefined) throw idx.describeDup(this.ns, k);
        idx.tree.set(k.enc + id, doc);
      }
    }
    this.indexes.set(spec.name, idx);
  }

  /** Inserts a document (which must have an _id); throws StoreError 11000 and changes nothing on conflicts. */
  insert(doc: Document, size: number): void {
    const id = encodeKey(doc._id);
    const idIndex = this.indexes.get("_id_") as Index;
    if (this.docs.has(id)) throw idIndex.describeDup(this.ns, { enc: id, values: [doc._id] });
    const all: [Index, KeyEntry[]][] = [];
    for (const idx of this.indexes.values()) {
      const keys = idx.isId ? [{ enc: id, values: [doc._id] }] : idx.keysFor(doc);
      if (idx.unique && !idx.isId)
        for (const k of keys) if (idx.conflict(k.enc, id) !== undefined) throw idx.describeDup(this.ns, k);
      all.push([idx, keys]);
    }
    for (const [idx, keys] of all) {
      if (idx.isId) {
        idx.tree.set(id, doc);
        continue;
      }
      if (keys.length > 1) idx.multikey = true;
      for (const k of keys) idx.tree.set(k.enc + id, doc);
    }
    this.docs.set(id, doc);
    this.dataSize += size;
  }

  /** Replaces a document by one with the same _id; atomic like insert. */
  replace(oldDoc: Document, newDoc: Document, sizeDelta: number): void {
    const id = encodeKey(oldDoc._id);
    const changes: [Index, KeyEntry[], KeyEntry[]][] = [];
    for (const idx of this.indexes.values()) {
      if (idx.isId) {
        changes.push([idx, [], []]);
        continue;
      }
      const oldKeys = idx.keysFor(oldDoc);
      const newKeys = idx.keysFor(newDoc);
      if (idx.unique) {
        const had = new Set(oldKeys.map((k) => k.enc));
        for (const k of newKeys)
          if (!had.has(k.enc) && idx.conflict(k.enc, id) !== undefined) throw idx.describeDup(this.ns, k);
      }
      changes.push([idx, oldKeys, newKeys]);
    }
    for (const [idx, oldKeys, newKeys] of changes) {
      if (idx.isId) {
        idx.tree.set(id, newDoc);
        continue;
      }
      const keep = new Set(newKeys.map((k) => k.enc));
      for (const k of oldKeys) if (!keep.has(k.enc)) idx.tree.delete(k.enc + id);
      if (newKeys.length > 1) idx.multikey = true;
      for (const k of newKeys) idx.tree.set(k.enc + id, newDoc);
    }
    this.docs.set(id, newDoc);
    this.dataSize += sizeDelta;
  }

  remove(doc: Document, size: number): void {
    const id = encodeKey(doc._id);
    if (!this.docs.delete(id)) return;
    for (const idx of this.indexes.values()) {
      if (idx.isId) idx.tree.delete(id);
      else for (const k of idx.keysFor(doc)) idx.tree.delete(k.enc + id);
    }
    this.dataSize -= size;
  }

  clear(): void {
    this.docs.clear();
    for (const idx of this.indexes.values()) idx.tree.clear();
    this.dataSize = 0;
  }

  getById(id: unknown): Document | undefined {
    return this.docs.get(encodeKey(id));
  }

  /**
   * Chooses how to fetch candidates for a filter: a direct _id lookup, an index range scan, or a collection
   * scan. With `sort` it may walk an index in sort order (the plan then says sortedByIndex).
   */
  plan(filter: Document | undefined, sort: [string, 1 | -1][], hint?: string | Document): CandidatePlan {
    const preds = extractPredicates(filter ? normalizeNumbers(filter) : undefined);
    const hinted = hint !== undefined ? this.resolveHint(hint) : undefined;

    // _id equality / $in: direct map lookups
    const idPred = preds.get("_id");
    if (!hinted && idPred?.eq && sort.length === 0) {
      const out: Document[] = [];
      const seen = new Set<string>();
      for (const v of idPred.eq) {
        const k = encodeKey(v);
        if (seen.has(k)) continue;
        seen.add(k);
        const d = this.docs.get(k);
        if (d) out.push(d);
      }
      return {
        plan: {
          collection: this.ns,
          stage: "IDHACK",
          index: "_id_",
          keysExamined: out.length,
          docsExamined: out.length,
        },
        candidates: out,
      };
    }

    const cands: Candidate<Index>[] = [];
    for (const idx of this.indexes.values()) {
      if (hinted && idx !== hinted) continue;
      if (idx.partial) continue;
      const r = intervalsFor(idx, preds);
      if (!r) continue;
      const sorts = sort.length > 0 && r.intervals.length === 1 && sortsAfterEquality(idx, preds, sort);
      const score = r.score + (idx.unique ? 0.5 : 0);
      cands.push({ idx, intervals: r.intervals, score, sorts, used: r.used });
    }
    const { best, bestSorted, keysCounted } = chooseIndex(cands);

    // sort by walking an index in order (when no better index narrows the filter)
    if (sort.length > 0) {
      const sidx = this.sortIndex(sort, hinted);
      if (sidx && (!best || best.idx === sidx)) {
        const reverse = sort[0][1] === -1;
        const intervals = best ? best.intervals : [{ low: "", high: "\uffff" }];
        if (intervals.length === 1) {
          return this.scanPlan(sidx, intervals, reverse, true, keysCounted);
        }
      }
      // an index that narrows as well as the best and sorts too: the sort follows its equality prefix ({a: 1,
      // b: 1} for a = x sorted by b; one interval of keys that differ only from b on is in b's order): a session's
      // newest messages, without sorting all of them. "As well": as few keys counted, and on equal counts (or
      // none) a score at least as high.
      if (
        best &&
        bestSorted &&
        (bestSorted === best || (bestSorted.keys === best.keys && bestSorted.score >= best.score))
      ) {
        return this.scanPlan(bestSorted.idx, bestSorted.intervals, sort[0][1] === -1, true, keysCounted);
      }
    }
    if (best) return this.scanPlan(best.idx, best.intervals, false, false, keysCounted);
    if (hinted) return this.scanPlan(hinted, [{ low: "", high: "\uffff" }], false, false);
    const self = this;
    const plan: QueryPlan = {
      collection: this.ns,
      stage: "COLLSCAN",
      index: null,
      keysExamined: 0,
      docsExamined: 0,
    };
    return {
      plan,
      candidates: {
        *[Symbol.iterator]() {
          for (const d of self.docs.values()) {
            plan.docsExamined++;
            self.docsExamined++;
            yield d;
          }
        },
      },
    };
  }

  private resolveHint(hint: string | Document): Index | undefined {
    if (typeof hint === "string") {
      const idx = this.indexes.get(hint);
      if (!idx) throw badValue("hint provided does not correspond to an existing index");
      return idx;
    }
    if (isPlainObject(hint) && "$natural" in hint) return undefined;
    const want = JSON.stringify(hint);
    for (const idx of this.indexes.values()) if (JSON.stringify(idx.spec.key) === want) return idx;
    throw badValue("hint provided does not correspond to an existing index");
  }

  private sortIndex(sort: [string, 1 | -1][], hinted: Index | undefined): Index | undefined {
    const dir = sort[0][1];
    if (sort.some(([, d]) => d !== dir)) return undefined;
    for (const idx of this.indexes.values()) {
      if (hinted && idx !== hinted) continue;
      if (idx.multikey || idx.sparse || idx.partial || idx.fields.length < sort.length) continue;
      if (sort.every(([p], i) => idx.fields[i][0] === p)) return idx;
    }
    return undefined;
  }

  private scanPlan(
    idx: Index,
    intervals: Interval[],
    reverse: boolean,
    sortedByIndex: boolean,
    planKeysCounted = 0,
  ): CandidatePlan {
    const plan: QueryPlan = {
      collection: this.ns,
      stage: "IXSCAN",
      index: idx.spec.name,
      keysExamined: 0,
      docsExamined: 0,
      sortedByIndex,
    };
    if (planKeysCounted > 0) plan.planKeysCounted = planKeysCounted;
    const self = this;
    const dedupe = idx.multikey || intervals.length > 1;
    return {
      plan,
      candidates: {
        *[Symbol.iterator]() {
          const seen = dedupe ? new Set<Document>() : undefined;
          for (const iv of intervals) {
            const it = reverse ? reverseRange(idx.tree, iv) : idx.tree.entries(iv.low);
            for (const [k, d] of it) {
              if (!reverse && k >= iv.high) break;
              plan.keysExamined++;
              if (seen) {
                if (seen.has(d)) continue;
                seen.add(d);
              }
              plan.docsExamined++;
              self.docsExamined++;
              yield d;
            }
          }
        },
      },
    };
  }
}

function* reverseRange(tree: KeyTree<Document>, iv: Interval): Generator<[string, Document]> {
  // entriesReversed starts at the highest key <= its argument; our high bound is exclusive
  for (const [k, d] of tree.entriesReversed(iv.high, undefined, true)) {
    if (k < iv.low) return;
    if (k >= iv.high) continue;
    yield [k, d];
  }
}
