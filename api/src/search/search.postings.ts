/**
 * A word's documents (a radix node's `d`) in an Int32Array instead of orama's Set: 4 bytes an id instead of ~30. A
 * restored index's lists are views of the snapshot's integers (search.persist-orama.ts); a built one's are packed
 * into one block once the build is done (packPostings()). An edit of a few articles touches most words' documents
 * (it removes and adds every word of its document), so Sets opened or kept for them cost ~190 MB at 20,000
 * articles (issue 16).
 */
import type { AnyOrama } from "@orama/orama";

/**
 * A radix node's documents, restored or built (KnowledgeIndex.rebuildFrom() turns a build's Sets into these): a Set
 * (orama adds and removes through its methods, the scorer reads view()) kept in an Int32Array in insertion order,
 * as a Set iterates. At first the array is a view of a shared block of integers (the snapshot's, or the build's,
 * which nothing else reads); it gets a buffer of its own when an add needs room. Ids are orama's internal ids (≥ 1).
 *
 * Lookups (each add and delete makes one): orama adds ids in ascending order, so the array is an ascending run
 * (binary search) followed by the ids added out of order since: an edited document keeps its internal id, and its
 * re-added id goes last, as in a Set. That tail is scanned while short and else looked up in a sorted copy of it,
 * kept in step with it; the order a Set iterates in (the scorer's tie-break, the persisted file) stays as it was.
 */
export class PostingSet extends Set<number> {
  private ids: Int32Array;
  private n: number;
  private owned = false;
  /** ids[0, run) ascend; -1 until the first lookup works it out */
  private run = -1;
  /** ids[run, n) sorted, while that tail is longer than TAIL_SCAN (null: not made yet, or dropped) */
  private tail: Int32Array | null = null;
  private tailN = 0;
  /** view(), until the next change */
  private cached: Int32Array | null = null;

  constructor(ids: Int32Array) {
    super();
    this.ids = ids;
    this.n = ids.length;
  }

  /** How many ids it holds (Set's size). */
  get count(): number {
    return this.n;
  }

  /** The ids in insertion order (a view: valid until the next change; the scorer reads it per word and query). */
  view(): Int32Array {
    this.cached ??= this.ids.subarray(0, this.n);
    return this.cached;
  }

  /** Lengthens the ascending run as far as the ids allow (the tail's sorted copy goes if the run takes any). */
  private extendRun(): void {
    const { ids, n } = this;
    let run = Math.max(this.run, Math.min(n, 1));
    while (run < n && ids[run - 1] < ids[run]) run++;
    if (run !== this.run) this.tail = null;
    this.run = run;
  }

  /** Whether the tail (ids[run, n)) holds `id`, through its sorted copy once it is long. */
  private inTail(id: number): boolean {
    const { ids, n, run } = this;
    if (n - run > TAIL_SCAN) {
      if (!this.tail) {
        this.tail = ids.slice(run, n).sort();
        this.tailN = n - run;
      }
      return find(this.tail, this.tailN, id) >= 0;
    }
    for (let i = run; i < n; i++) if (ids[i] === id) return true;
    return false;
  }

  override has(id: number): boolean {
    if (this.run < 0) this.extendRun();
    return find(this.ids, this.run, id) >= 0 || this.inTail(id);
  }

  override add(id: number): this {
    if (this.has(id)) return this;
    if (this.n === this.ids.length || !this.owned) {
      const next = new Int32Array(Math.max(4, this.n + (this.n >> 2) + 1));
      next.set(this.view());
      this.ids = next;
      this.owned = true;
    }
    const ascends = this.run === this.n && (this.n === 0 || this.ids[this.n - 1] < id);
    this.ids[this.n++] = id;
    this.cached = null;
    if (ascends) this.run++;
    else if (this.tail) {
      // a re-added id (or one after it): into the tail's sorted copy too
      const at = -find(this.tail, this.tailN, id) - 1;
      if (this.tailN === this.tail.length) {
        const next = new Int32Array(this.tailN + (this.tailN >> 2) + 1);
        next.set(this.tail);
        this.tail = next;
      }
      this.tail.copyWithin(at + 1, at, this.tailN);
      this.tail[at] = id;
      this.tailN++;
    }
    return this;
  }

  override delete(id: number): boolean {
    if (this.run < 0) this.extendRun();
    let at = find(this.ids, this.run, id);
    if (at < 0) {
      if (!this.inTail(id)) return false;
      at = this.ids.indexOf(id, this.run); // the first one is before n (after it: stale copies only)
      if (this.tail) {
        const t = find(this.tail, this.tailN, id);
        this.tail.copyWithin(t, t + 1, this.tailN);
        this.tailN--;
      }
    } else this.run--;
    this.ids.copyWithin(at, at + 1, this.n);
    this.n--;
    this.cached = null;
    if (at <= this.run) this.extendRun(); // the tail's first id may continue the run now
    return true;
  }

  override clear(): void {
    this.ids = new Int32Array(0);
    this.n = 0;
    this.owned = true;
    this.run = 0;
    this.tail = null;
    this.cached = null;
  }

  override forEach(fn: (value: number, key: number, set: Set<number>) => void, thisArg?: unknown): void {
    for (const id of this.view()) fn.call(thisArg, id, id, this);
  }

  override values(): SetIterator<number> {
    return this.view().values() as unknown as SetIterator<number>;
  }

  override keys(): SetIterator<number> {
    return this.values();
  }

  override entries(): SetIterator<[number, number]> {
    return Array.from(this.view(), (id): [number, number] => [id, id]).values() as unknown as SetIterator<
      [number, number]
    >;
  }

  override [Symbol.iterator](): SetIterator<number> {
    return this.values();
  }
}

/** A tail of ids added out of order up to this long is scanned; a longer one gets a sorted copy. */
const TAIL_SCAN = 32;

/** Where `id` is in the ascending a[0, n), or -(where it would go) - 1. */
function find(a: Int32Array, n: number, id: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid];
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

// Set's own size reads its (empty) table
Object.defineProperty(PostingSet.prototype, "size", {
  get(this: PostingSet) {
    return this.count;
  },
});

type Node = { d: Set<number>; c: Map<string, Node> };

/**
 * Turns every orama Set of a database's radix trees into a PostingSet over one shared block (same ids, same
 * order): after a build from the store, so a cold start holds what a warm one does. Lists already PostingSets
 * stay; empty Sets stay (orama adds to them in place).
 */
export function packPostings(db: AnyOrama): void {
  const open: Node[] = [];
  let total = 0;
  for (const { node } of Object.values(
    (db.data.index as unknown as { indexes: Record<string, { node: Node }> }).indexes,
  )) {
    const stack = [node];
    while (stack.length > 0) {
      const n = stack.pop() as Node;
      if (n.d.size > 0 && !(n.d instanceof PostingSet)) {
        open.push(n);
        total += n.d.size;
      }
      for (const c of n.c.values()) stack.push(c);
    }
  }
  const block = new Int32Array(total);
  let at = 0;
  for (const n of open) {
    const from = at;
    for (const id of n.d) block[at++] = id;
    n.d = new PostingSet(block.subarray(from, at));
  }
}
