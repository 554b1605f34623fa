/**
 * A word's documents (a radix node's `d`) in an Int32Array instead of orama's Set: 4 bytes an id instead of ~30. A
 * restored index's lists are views of the snapshot's integers, a built one's are packed into one block once the
 * build is done (both in search.persist-orama.ts: restoreDb(), packPostings()). An edit of a few articles touches
 * most words' documents (it removes and adds every word of its document), so Sets opened or kept for them cost
 * ~190 MB at 20,000 articles (issue 16).
 */

/**
 * A radix node's documents, restored or built (KnowledgeIndex.rebuildFrom() turns a build's Sets into these): a Set
 * (orama adds and removes through its methods, the scorer reads view()) kept in an Int32Array in insertion order,
 * as a Set iterates. At first the array is a view of a shared block of integers (the snapshot's, or the build's,
 * which nothing else reads); it gets a buffer of its own when an add needs room. Ids are orama's internal ids (≥ 1).
 *
 * While the ids are ascending (as orama adds them, so as restored or built) lookups are a binary search; a re-added
 * id (an edited document keeps its internal id) goes last, as in a Set, and lookups of that list become a scan:
 * measured, that costs nothing worth a second structure (issue 16: 140 edits at 20,000 articles scan 6.3 M ids in
 * all, a few ms; search() makes no lookups). The order a Set iterates in (the scorer's tie-break, the persisted
 * file) is kept.
 */
export class PostingSet extends Set<number> {
  private ids: Int32Array;
  private n: number;
  private owned = false;
  /** null until the first lookup works it out */
  private ascending: boolean | null = null;
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

  private indexOf(id: number): number {
    const { ids, n } = this;
    if (this.ascending === null) {
      let asc = true;
      for (let i = 1; i < n && asc; i++) asc = ids[i - 1] < ids[i];
      this.ascending = asc;
    }
    if (!this.ascending) {
      for (let i = 0; i < n; i++) if (ids[i] === id) return i;
      return -1;
    }
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  override has(id: number): boolean {
    return this.indexOf(id) >= 0;
  }

  override add(id: number): this {
    if (this.indexOf(id) >= 0) return this;
    if (this.n === this.ids.length || !this.owned) {
      const next = new Int32Array(Math.max(4, this.n + (this.n >> 2) + 1));
      next.set(this.view());
      this.ids = next;
      this.owned = true;
    }
    if (this.n > 0 && this.ids[this.n - 1] > id) this.ascending = false;
    this.ids[this.n++] = id;
    this.cached = null;
    return this;
  }

  override delete(id: number): boolean {
    const at = this.indexOf(id);
    if (at < 0) return false;
    this.ids.copyWithin(at, at + 1, this.n);
    this.n--;
    this.cached = null;
    return true;
  }

  override clear(): void {
    this.ids = new Int32Array(0);
    this.n = 0;
    this.owned = true;
    this.ascending = null;
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

// Set's own size reads its (empty) table
Object.defineProperty(PostingSet.prototype, "size", {
  get(this: PostingSet) {
    return this.count;
  },
});
