/**
 * A session's messages as a tree (edit and regenerate add siblings; nothing is ever removed). Pure: no store.
 *
 * Each message's parent is the message before it in its branch: a question's parent is the answer before it
 * (null for a first question), an answer's parent is its question. Messages stored before branches existed have
 * no `parentId`: their parent is the message before them in time (a linear session stays exactly as it was).
 * A stored parentId that is not in the session (its insert failed) is read the same way.
 *
 * The shown branch: from the root down to the session's `activeLeafId` and on, at each later fork, through the
 * newest child. Without an activeLeafId (old sessions) it ends at the newest message.
 */

export interface TreeMessage {
  _id: unknown;
  /** absent on messages stored before branches; null for a first question */
  parentId?: unknown;
  timestamp: Date;
}

export interface BranchInfo {
  parentId: string | null;
  siblingIndex: number;
  siblingCount: number;
  siblingIds: string[];
}

const ROOT = "";

export class MessageTree<T extends TreeMessage> {
  readonly byId = new Map<string, T>();
  private readonly parentOf = new Map<string, string | null>();
  /** children per parent id (ROOT for first questions), oldest first */
  private readonly childrenOf = new Map<string, string[]>();
  private readonly order: string[] = [];

  /** `docs` in any order; they are sorted by time (then id), as the store keeps them. */
  constructor(docs: T[]) {
    // each id as text and each time as a number once (opening a long session builds a tree of thousands):
    // the ids are 24 lowercase hex digits, so comparing them as text is their order
    const sorted = docs.map((d) => ({ d, id: String(d._id), at: d.timestamp.getTime() }));
    sorted.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const { d, id } of sorted) this.byId.set(id, d);
    let previous: string | null = null;
    for (const { d, id } of sorted) {
      const stored = d.parentId === undefined ? undefined : d.parentId === null ? null : String(d.parentId);
      const parent =
        stored === null ? null : stored !== undefined && this.byId.has(stored) ? stored : previous;
      this.parentOf.set(id, parent);
      const key = parent ?? ROOT;
      const list = this.childrenOf.get(key) ?? [];
      list.push(id);
      this.childrenOf.set(key, list);
      this.order.push(id);
      previous = id;
    }
  }

  get size(): number {
    return this.order.length;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  parent(id: string): string | null {
    return this.parentOf.get(id) ?? null;
  }

  /** The alternatives at a message's point (itself included), oldest first. */
  siblings(id: string): string[] {
    return this.childrenOf.get(this.parent(id) ?? ROOT) ?? [id];
  }

  children(id: string | null): string[] {
    return this.childrenOf.get(id ?? ROOT) ?? [];
  }

  /** The messages from the root down to `id` (inclusive); [] for null or an id not in the tree. */
  pathTo(id: string | null): T[] {
    const out: T[] = [];
    const seen = new Set<string>();
    for (let at = id; at !== null && !seen.has(at); at = this.parent(at)) {
      const doc = this.byId.get(at);
      if (!doc) break;
      seen.add(at);
      out.push(doc);
    }
    return out.reverse();
  }

  /** The leaf reached from `id` (null = the root) by taking the newest child at every step. */
  newestLeafUnder(id: string | null): string | null {
    let at = id;
    for (;;) {
      const kids = this.children(at);
      if (kids.length === 0) return at;
      at = kids[kids.length - 1] as string;
    }
  }

  /** The shown branch, root first: down to `activeLeafId` (when in the tree), then through the newest children. */
  shownBranch(activeLeafId: string | null | undefined): T[] {
    const start = activeLeafId && this.has(activeLeafId) ? activeLeafId : this.newestLeafUnder(null);
    return this.pathTo(this.newestLeafUnder(start));
  }

  /** The end of the shown branch: where a new question goes (null in an empty session). */
  shownLeaf(activeLeafId: string | null | undefined): string | null {
    const branch = this.shownBranch(activeLeafId);
    return branch.length ? String(branch[branch.length - 1]?._id) : null;
  }

  branchInfo(id: string): BranchInfo {
    const siblingIds = [...this.siblings(id)];
    return {
      parentId: this.parent(id),
      siblingIndex: siblingIds.indexOf(id) + 1,
      siblingCount: siblingIds.length,
      siblingIds,
    };
  }
}
