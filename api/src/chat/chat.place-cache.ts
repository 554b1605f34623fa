/**
 * Sessions' place trees (chat.pages.ts PLACE_FIELDS) kept in this process, so opening a page of a long session
 * reads its session document and the page's messages, not every message's place (5,000 places a page at 5,000
 * messages before).
 *
 * Correct across processes without listening to anything: a session document carries `placeVersion`, raised
 * (`$inc`) by every write that adds messages, AFTER the insert was acknowledged (chat.send.ts, chat.branches.ts;
 * messages are never moved, and only deleted with their session). A tree is kept with the version read BEFORE it
 * was loaded, so it holds at least every message added up to that version; it is used only while the session
 * still has that version. A message added but not yet counted may be missing from a tree in use: a read at that
 * moment without the cache could miss it too (its insert and the page's read race either way), and its count
 * follows at once. A tree that does not hold the session's shown leaf (`activeLeafId`: a send sets it before its
 * insert) is read again, so a lost count cannot hide a new answer either.
 *
 * Bounded by PLACE_CACHE_MAX_PLACES places in all (the least recently used session goes first); sessions shorter
 * than PLACE_CACHE_MIN_PLACES are read each time (their read costs little).
 */
import type { MessageTree, TreeMessage } from "./chat.tree";

/** places kept in all (~640 bytes each with the tree's maps, measured: ~32 MB; ten sessions of 5,000 messages) */
export const PLACE_CACHE_MAX_PLACES = 50_000;
/** a session with fewer messages is not kept */
export const PLACE_CACHE_MIN_PLACES = 100;

/**
 * Whether a write that adds messages must count them on the session (`placeVersion`): only when some process may
 * keep the session's tree, i.e. when the session may reach PLACE_CACHE_MIN_PLACES with these messages and the
 * others that may be added beside them (`addedAtMost`). `known`: the session's size as the writer read it, null
 * when unknown (a read of only the newest messages, or a failed read). A short session's send then costs no extra
 * store write: no process keeps a tree of it, and trees only grow (messages go only with their session).
 */
export function mayBeKept(known: number | null, addedAtMost: number): boolean {
  return known === null || known + addedAtMost >= PLACE_CACHE_MIN_PLACES;
}

/** What the cache needs of a session document. */
export interface PlaceVersioned {
  placeVersion?: number | null;
  activeLeafId?: unknown;
}

interface Entry {
  version: number;
  tree: MessageTree<TreeMessage>;
}

export class PlaceTreeCache {
  private readonly entries = new Map<string, Entry>();
  private places = 0;

  constructor(
    private readonly maxPlaces = PLACE_CACHE_MAX_PLACES,
    private readonly minPlaces = PLACE_CACHE_MIN_PLACES,
  ) {}

  /**
   * The session's tree: the kept one while `session` (read before this call) has its version and its shown leaf
   * is in it, else `load()`'s (kept for that version).
   */
  async tree(
    userId: string,
    sessionId: string,
    session: PlaceVersioned,
    load: () => Promise<MessageTree<TreeMessage>>,
  ): Promise<MessageTree<TreeMessage>> {
    const key = `${userId}:${sessionId}`;
    const version = session.placeVersion ?? 0;
    const leaf = session.activeLeafId ? String(session.activeLeafId) : null;
    const kept = this.entries.get(key);
    if (kept && kept.version === version && (leaf === null || kept.tree.has(leaf))) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.tree;
    }
    const tree = await load();
    this.forget(key);
    if (tree.size >= this.minPlaces && tree.size <= this.maxPlaces) {
      this.entries.set(key, { version, tree });
      this.places += tree.size;
      for (const [oldest, entry] of this.entries) {
        if (this.places <= this.maxPlaces) break;
        this.entries.delete(oldest);
        this.places -= entry.tree.size;
      }
    }
    return tree;
  }

  /** Drops a session's tree (this process added messages to it, or deleted it). */
  forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.places -= entry.tree.size;
  }

  forgetSession(userId: string, sessionId: string): void {
    this.forget(`${userId}:${sessionId}`);
  }

  clear(): void {
    this.entries.clear();
    this.places = 0;
  }
}

/** The process's cache (the trees are read-only: MessageTree is never changed after it is built). */
export const placeTrees = new PlaceTreeCache();
