/**
 * The query planner's rules: the predicates a filter gives (equality, $in, ranges), the key intervals an index
 * scans for them, and the choice among the indexes that can serve a filter by how many keys each would read.
 */
import type { Document } from "bson";
import type { KeyTree } from "./btree";
import { encodeKey, isPlainObject, KEY_END } from "./keys";

export interface Interval {
  low: string;
  high: string;
}

/** what the planner needs of an index (collection.ts's Index) */
export interface PlanIndex {
  readonly fields: [string, number | string][];
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly partial: unknown;
  readonly multikey: boolean;
  readonly tree: KeyTree<unknown>;
}

export interface FieldPred {
  eq?: unknown[];
  low?: { enc: string; inclusive: boolean };
  high?: { enc: string; inclusive: boolean };
}

function usableValue(v: unknown): boolean {
  return (
    v !== undefined &&
    !Array.isArray(v) &&
    !(v instanceof RegExp) &&
    (v as { _bsontype?: string })?._bsontype !== "BSONRegExp"
  );
}

function isOperatorObject(v: unknown): v is Document {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys[0].startsWith("$");
}

/** Equality / $in / range predicates on plain fields at the top level (and inside a top-level $and). */
export function extractPredicates(filter: Document | undefined): Map<string, FieldPred> {
  const out = new Map<string, FieldPred>();
  if (filter) addPredicates(filter, out);
  return out;
}

/** extractPredicates' walk (a function, not a closure: tsx names each closure it creates, ~0.5 µs a query) */
function addPredicates(f: Document, out: Map<string, FieldPred>): void {
  for (const key of Object.keys(f)) {
    const cond = f[key];
    if (key === "$and" && Array.isArray(cond)) {
      for (const c of cond) if (isPlainObject(c)) addPredicates(c, out);
      continue;
    }
    if (key.startsWith("$")) continue;
    const p: FieldPred = out.get(key) ?? {};
    if (isOperatorObject(cond)) {
      for (const op of Object.keys(cond)) {
        const v = cond[op];
        if (op === "$eq" && usableValue(v)) p.eq = [v];
        else if (op === "$in" && Array.isArray(v) && v.length > 0 && v.every(usableValue)) p.eq = p.eq ?? v;
        else if ((op === "$gt" || op === "$gte") && usableValue(v) && !isPlainObject(v) && v !== null) {
          const enc = encodeKey(v);
          if (!p.low || enc > p.low.enc) p.low = { enc, inclusive: op === "$gte" };
        } else if ((op === "$lt" || op === "$lte") && usableValue(v) && !isPlainObject(v) && v !== null) {
          const enc = encodeKey(v);
          if (!p.high || enc < p.high.enc) p.high = { enc, inclusive: op === "$lte" };
        }
      }
    } else if (usableValue(cond)) {
      p.eq = [cond];
    }
    if (p.eq || p.low || p.high) out.set(key, p);
  }
}

/**
 * True when `sort` names the index's fields right after its leading fields that `preds` fix to one value each, all
 * in one direction: within the one interval of such a filter the index's keys are in the sort's order (keys are
 * encoded ascending whatever the field's direction; a descending sort walks them backwards).
 */
export function sortsAfterEquality(
  idx: PlanIndex,
  preds: Map<string, FieldPred>,
  sort: [string, 1 | -1][],
): boolean {
  if (idx.multikey || idx.sparse || idx.partial) return false;
  if (sort.some(([, d]) => d !== sort[0][1])) return false;
  let fixed = 0;
  while (fixed < idx.fields.length && preds.get(idx.fields[fixed][0])?.eq?.length === 1) fixed++;
  if (fixed === 0 || fixed + sort.length > idx.fields.length) return false;
  return sort.every(([p], i) => idx.fields[fixed + i][0] === p);
}

/**
 * Index key intervals for the predicates on the index's leading fields, or null when the index cannot help;
 * `used` names the fields whose predicates the intervals apply.
 */
export function intervalsFor(
  idx: PlanIndex,
  preds: Map<string, FieldPred>,
): { intervals: Interval[]; score: number; used: string[] } | null {
  let prefixes = [""];
  let score = 0;
  const used: string[] = [];
  for (const [path] of idx.fields) {
    const p = preds.get(path);
    if (!p) break;
    if (p.eq) {
      if (idx.sparse && p.eq.some((v) => v === null))
        return score > 0 ? { intervals: close(prefixes), score, used } : null;
      if (prefixes.length * p.eq.length > 1000) break;
      const next: string[] = [];
      for (const pre of prefixes) for (const v of p.eq) next.push(pre + encodeKey(v));
      prefixes = next;
      score += 2;
      used.push(path);
      continue;
    }
    // range on this field ends the usable prefix
    const intervals: Interval[] = [];
    const typeLow = (p.low ?? p.high)!.enc[0];
    const typeHigh = String.fromCharCode(typeLow.charCodeAt(0) + 1);
    for (const pre of prefixes) {
      let low = pre + (p.low ? (p.low.inclusive ? p.low.enc : p.low.enc + KEY_END) : typeLow);
      let high = pre + (p.high ? (p.high.inclusive ? p.high.enc + KEY_END : p.high.enc) : typeHigh);
      // with arrays one element may satisfy the lower and another the upper bound: keep only one side
      if (idx.multikey && p.low && p.high) high = pre + typeHigh;
      if (low === pre + typeLow && high === pre + typeHigh && !p.low && !p.high) low = pre;
      intervals.push({ low, high });
    }
    used.push(path);
    return { intervals, score: score + 1, used };
  }
  if (score === 0) return null;
  return { intervals: close(prefixes), score, used };
}

function close(prefixes: string[]): Interval[] {
  return [...new Set(prefixes)].sort().map((pre) => ({ low: pre, high: pre + KEY_END }));
}

/**
 * At most this many index keys are counted for one candidate index while planning: when no candidate's intervals
 * end before it, they count as equal and the score decides. Counting a key is a step in the B+tree, without
 * fetching or matching its document.
 */
export const PLAN_KEY_COUNT_CAP = 1000;
/**
 * Candidates are counted in turns of this many keys each, and counting stops at the end of the first turn in
 * which one of them runs out of keys: planning reads about (candidates × the winner's keys), not a loser's cap.
 */
export const PLAN_COUNT_STEP = 50;

/** An index that can serve the filter, with the key intervals it would scan. */
export interface Candidate<I extends PlanIndex> {
  idx: I;
  intervals: Interval[];
  /** 2 per leading field fixed by equality, 1 for a range after them, +0.5 for a unique index */
  score: number;
  /** one interval whose keys come in the sort's order (sortsAfterEquality) */
  sorts: boolean;
  /** the fields whose predicates the intervals apply (intervalsFor) */
  used: string[];
  /**
   * keys counted in its intervals, set only when there were candidates to choose between: exact for a candidate
   * that ran out of keys, else a lower bound above every exact count
   */
  keys?: number;
}

/**
 * The same for candidates whose intervals hold as many keys, whatever the index: an index that is neither
 * multikey nor sparse has one key per document, so intervals applying the same predicates hold as many keys.
 */
function sameKeys(c: Candidate<PlanIndex>): string | Candidate<PlanIndex> {
  if (c.idx.multikey || c.idx.sparse || c.idx.partial) return c;
  return c.used.length === 1 ? c.used[0] : [...c.used].sort().join("\u0000");
}

export interface IndexChoice<I extends PlanIndex> {
  /** the candidate reading the fewest keys; equal counts go to the higher score, then the older index */
  best?: Candidate<I>;
  /** the best, by the same order, of the candidates that also give the sort's order */
  bestSorted?: Candidate<I>;
  /** keys counted while choosing (0 when there was nothing to choose between) */
  keysCounted: number;
}

/**
 * A resumable count of the keys of a tree in intervals (low inclusive, high exclusive, ascending): one iterator
 * per interval, so a turn goes on where the last one stopped without descending the tree again.
 */
export class KeyCounter {
  count = 0;
  /** true once every interval has been counted to its end */
  done: boolean;
  private iv = 0;
  private it: Iterator<[string, unknown]> | undefined;
  private readonly pair: [string, unknown] = ["", undefined];

  constructor(
    private readonly tree: KeyTree<unknown>,
    private readonly intervals: Interval[],
  ) {
    this.done = intervals.length === 0;
  }

  /** counts up to `n` more keys */
  advance(n: number): void {
    let left = n;
    while (left > 0 && !this.done) {
      const { low, high } = this.intervals[this.iv];
      this.it ??= this.tree.entries(low, this.pair);
      for (let r = this.it.next(); !r.done && r.value[0] < high; r = this.it.next()) {
        this.count++;
        if (--left === 0) return;
      }
      this.it = undefined;
      if (++this.iv === this.intervals.length) this.done = true;
    }
  }
}

/** a before b: fewer keys, or as many and a higher score (a function, not a closure: see addPredicates) */
function better(a: Candidate<PlanIndex>, b: Candidate<PlanIndex> | undefined): boolean {
  return !b || (a.keys ?? 0) < (b.keys ?? 0) || (a.keys === b.keys && a.score > b.score);
}

/** A unique index whose every field the filter fixes to one value (score 2 per field + 0.5): at most one key. */
function isPointLookup(c: Candidate<PlanIndex>): boolean {
  return c.idx.unique && c.intervals.length === 1 && c.score === 2 * c.idx.fields.length + 0.5;
}

/** keys of `tree` in `intervals`, counting stopped at `cap` */
export function countKeys(tree: KeyTree<unknown>, intervals: Interval[], cap: number): number {
  const counter = new KeyCounter(tree, intervals);
  counter.advance(cap);
  return counter.count;
}

/**
 * Chooses among the candidates (in index creation order) the way MongoDB's trial runs do in effect: the one
 * whose intervals hold the fewest keys. Candidates known to hold as many keys (sameKeys) are counted once;
 * when all are, nothing is counted. The others are counted in turns (PLAN_COUNT_STEP), so counting stops soon
 * after the smallest runs out, or at PLAN_KEY_COUNT_CAP.
 */
export function chooseIndex<I extends PlanIndex>(cands: Candidate<I>[]): IndexChoice<I> {
  if (cands.length <= 1) {
    const only = cands[0];
    return { best: only, bestSorted: only?.sorts ? only : undefined, keysCounted: 0 };
  }
  // a unique index with every field fixed to one value holds at most one key: no count can beat it (a session
  // looked up by its unique sessionId and its owner counted the owner's sessions on every query)
  for (const c of cands) {
    if (isPointLookup(c)) return { best: c, bestSorted: c.sorts ? c : undefined, keysCounted: 0 };
  }
  let keysCounted = 0;
  const groups = new Map<string | Candidate<PlanIndex>, Candidate<I>[]>();
  for (const c of cands) {
    const key = sameKeys(c);
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  if (groups.size > 1) {
    const counters: KeyCounter[] = [];
    for (const [first] of groups.values()) counters.push(new KeyCounter(first.idx.tree, first.intervals));
    let anyDone = false;
    for (let n = 0; n < PLAN_KEY_COUNT_CAP && !anyDone; n += PLAN_COUNT_STEP)
      for (const k of counters) {
        k.advance(PLAN_COUNT_STEP);
        anyDone ||= k.done;
      }
    let i = 0;
    for (const group of groups.values()) {
      const { count } = counters[i++];
      keysCounted += count;
      for (const c of group) c.keys = count;
    }
  }
  let best: Candidate<I> | undefined;
  let bestSorted: Candidate<I> | undefined;
  for (const c of cands) {
    if (better(c, best)) best = c;
    if (c.sorts && better(c, bestSorted)) bestSorted = c;
  }
  return { best, bestSorted, keysCounted };
}
