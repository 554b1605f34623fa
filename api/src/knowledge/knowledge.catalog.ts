/**
 * The knowledge articles in memory: a catalog (id → article) and the search engineer's KnowledgeIndex, kept
 * in step with the store.
 *
 * - Changes made through this process (apply/remove) update both at once, so search sees them immediately.
 * - Changes made by another process (the CLI importing while the server runs, a second server) are noticed
 *   cheaply: before a read, at most every `checkIntervalMs`, the store's stamp (article count + newest
 *   updatedAt) is compared with the last one seen; when it moved, the (id, updatedAt) fingerprint is compared
 *   with the index's, and only when that differs are the articles re-read and the index rebuilt (which
 *   re-indexes only changed articles).
 *
 * All memory changes run one at a time (a promise chain), so a rebuild never interleaves with a local write.
 */
import { logger } from "../logger";
import { computeFingerprint, revisionOf } from "../search/search.fingerprint";
import { KnowledgeIndex } from "../search/search.index";
import type { EmbedFunction, IndexableArticle } from "../search/search.types";
import { ArticleModel, type ArticleRecord } from "./article.model";
import type { ArticleView } from "./article.presenter";
import type { PersistedIndex } from "./knowledge.persisted-index";

export const DEFAULT_CHECK_INTERVAL_MS = 2_000;
/**
 * The article change stream counts as following the store while it has handed out every change committed
 * before now − CATALOG_FOLLOWED_LAG_MS (an idle stream reports every AWAIT_MS = 1 s); then the stamp check runs in the
 * background. A stalled or reopening stream makes reads wait for the check again.
 */
export const CATALOG_FOLLOWED_LAG_MS = 3_000;
const DEFERRED = "embedding deferred until the index is built";
/** Passages left without a vector (the embedding service failed) are retried at most this often. */
export const DEFAULT_EMBED_RETRY_MS = 60_000;
/** After a change, the persisted index is written this much later (changes in between are written together). */
export const PERSIST_DELAY_MS = 60_000;
/** After a build from the store, the persisted index is written this much later. */
export const PERSIST_AFTER_BUILD_MS = 5_000;

export function toView(d: ArticleRecord): ArticleView {
  return {
    id: String(d._id),
    title: d.title,
    content: d.content,
    category: d.category,
    subcategory: d.subcategory ?? null,
    tags: [...(d.tags ?? [])],
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    source: d.source as ArticleView["source"],
    sourceId: d.sourceId,
    sourceUrl: d.sourceUrl ?? null,
    sourceDatabase: d.sourceDatabase ?? null,
    sourceAnchors: (d.sourceAnchors ?? []).map((x) => ({
      heading: x.heading ?? "",
      blockId: x.blockId ?? "",
    })),
    contentHash: d.contentHash,
  };
}

function toIndexable(a: ArticleView): IndexableArticle {
  return {
    id: a.id,
    title: a.title,
    content: a.content,
    category: a.category,
    subcategory: a.subcategory,
    tags: a.tags,
    // the index's revision of an article is its updatedAt, so fingerprints compare with the store cheaply
    updatedAt: a.updatedAt,
  };
}

export interface CatalogOptions {
  embed?: EmbedFunction;
  checkIntervalMs?: number;
  embedRetryMs?: number;
  /** where the index is persisted between starts (knowledge.persisted-index.ts); unset = rebuilt every start */
  persisted?: PersistedIndex;
  /** default PERSIST_DELAY_MS */
  persistDelayMs?: number;
}

export class KnowledgeCatalog {
  readonly index: KnowledgeIndex;
  private articles = new Map<string, ArticleView>();
  private readonly checkIntervalMs: number;
  /** the store stamp the memory was last found in step with; null = never loaded */
  private stamp: string | null = null;
  private lastCheck = 0;
  private checking: Promise<void> | null = null;
  /** the article change stream's progress (knowledge.watch.ts), when one follows the store */
  private caughtUpTo: (() => number) | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private versionCounter = 0;
  private readonly embedRetryMs: number;
  private lastEmbedRetry = Date.now();
  /** true while a (re)build runs: its passages are embedded afterwards, in the background */
  private deferEmbedding = false;
  private readonly persisted?: PersistedIndex;
  private readonly persistDelayMs: number;
  private persistTimer: NodeJS.Timeout | null = null;
  /** memory changed since the index was last persisted */
  private dirty = false;
  private triedPersisted = false;
  private loadedPersisted = false;
  /** true from loading the persisted index until it has been brought in step with the store (background) */
  private catchingUp = false;

  constructor(options: CatalogOptions = {}) {
    const embed = options.embed;
    this.index = new KnowledgeIndex({
      embed: embed && ((texts) => (this.deferEmbedding ? Promise.reject(new Error(DEFERRED)) : embed(texts))),
    });
    this.checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
    this.embedRetryMs = options.embedRetryMs ?? DEFAULT_EMBED_RETRY_MS;
    this.persisted = options.persisted;
    this.persistDelayMs = options.persistDelayMs ?? PERSIST_DELAY_MS;
  }

  /** Increases on every change of the in-memory articles (for caching presented output). */
  get version(): number {
    return this.versionCounter;
  }

  /** Run a change of memory (and, if given, its store write) after every earlier one. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Make sure memory matches the store: the first call loads everything; later calls check the store's
   * stamp at most every checkIntervalMs (concurrent callers share one check). While a change stream keeps
   * memory in step (follow()), that check is a safety net in the background: no read waits for it.
   */
  async ensureFresh(): Promise<void> {
    this.retryEmbeddings();
    // while the persisted index catches up with the store, answer from it (a few seconds stale at most)
    if (this.stamp !== null && (this.catchingUp || Date.now() - this.lastCheck < this.checkIntervalMs))
      return;
    const check = this.startCheck();
    if (this.stamp !== null && this.stamp !== "stale" && this.followed()) return;
    await check;
  }

  /**
   * Another process's article changes reach memory through a change stream (knowledge.watch.ts): `caughtUpTo`
   * tells until when it has handed out every change (null: no longer followed).
   */
  follow(caughtUpTo: (() => number) | null): void {
    this.caughtUpTo = caughtUpTo;
  }

  /** the change stream is alive and caught up (it answered within CATALOG_FOLLOWED_LAG_MS) */
  private followed(): boolean {
    return this.caughtUpTo !== null && this.caughtUpTo() >= Date.now() - CATALOG_FOLLOWED_LAG_MS;
  }

  /** The store check, shared by concurrent callers; a failure with memory loaded answers from memory. */
  private startCheck(): Promise<void> {
    this.checking ??= this.check()
      .catch((err) => {
        if (this.stamp === null) throw err; // nothing loaded yet: nothing to answer from
        // the store did not answer the check: answer from memory (possibly a little stale) and try again later
        this.lastCheck = Date.now();
        logger.warn({ err }, "could not check the store for knowledge changes; answering from memory");
      })
      .finally(() => {
        this.checking = null;
      });
    // a check nobody waits for must not be an unhandled rejection
    this.checking.catch(() => undefined);
    return this.checking;
  }

  /** Load or re-sync now, whatever the interval (start-up). */
  async refresh(): Promise<void> {
    this.lastCheck = 0;
    this.stamp = null;
    await this.ensureFresh();
  }

  /**
   * One article changed in the store, maybe by another process (a change stream saw it): bring memory in step
   * with it, without re-reading everything. A change this process made itself is already there (same
   * updatedAt and content hash) and costs one read.
   */
  syncArticle(id: string): Promise<void> {
    return this.exclusive(async () => {
      if (this.stamp === null) return; // not loaded yet: the first load reads it
      const doc = (await ArticleModel.findById(id).lean()) as ArticleRecord | null;
      if (!doc) {
        if (this.articles.has(id)) await this.remove(id);
        return;
      }
      const known = this.articles.get(id);
      const same =
        known &&
        new Date(known.updatedAt).getTime() === new Date(doc.updatedAt).getTime() &&
        known.contentHash === doc.contentHash;
      if (!same) await this.apply(toView(doc));
    });
  }

  /** Changes may have been missed (a change stream could not resume): compare with the store at the next read. */
  markStale(): void {
    if (this.stamp !== null) this.stamp = "stale";
    this.lastCheck = 0;
  }

  all(): ArticleView[] {
    return [...this.articles.values()];
  }

  get(id: string): ArticleView | undefined {
    return this.articles.get(id);
  }

  get size(): number {
    return this.articles.size;
  }

  /** Put a saved article into memory (call inside exclusive(), after the store write). */
  async apply(article: ArticleView): Promise<void> {
    const res = await this.index.upsertArticle(toIndexable(article));
    if (res.embeddingError)
      logger.warn(
        { articleId: article.id, err: res.embeddingError },
        "embedding failed; indexed as text only",
      );
    this.articles.set(article.id, article);
    this.changed();
  }

  /** Take a deleted article out of memory (call inside exclusive(), after the store delete). */
  async remove(id: string): Promise<void> {
    await this.index.removeArticle(id);
    this.articles.delete(id);
    this.changed();
  }

  /** True when memory was loaded from the persisted index at start (not built from the store). */
  get startedFromPersisted(): boolean {
    return this.loadedPersisted;
  }

  /** Resolves once a persisted index loaded at start has caught up with the store (at once otherwise). */
  async caughtUp(): Promise<void> {
    while (this.catchingUp) {
      if (this.checking) await this.checking.catch(() => undefined);
      else await new Promise((resolve) => setImmediate(resolve)); // catch-up starts on the next turn
    }
  }

  /** Stops the persist timer and writes what changed since the last write (shutdown). */
  async close(): Promise<void> {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    await this.exclusive(async () => undefined); // a write in flight finishes while the store is still open
    if (this.dirty) await this.persist();
  }

  /** Writes the persisted index now (inside exclusive(): between two changes). Never throws. */
  persist(): Promise<void> {
    return this.exclusive(async () => {
      if (!this.persisted || this.articles.size < this.persisted.minArticles) return;
      this.dirty = false;
      const t0 = Date.now();
      try {
        const bytes = await this.persisted.save(this.index, this.articles);
        logger.info({ bytes, ms: Date.now() - t0, file: this.persisted.file }, "search index persisted");
      } catch (err) {
        this.dirty = true;
        logger.warn({ err }, "could not persist the search index; the next start rebuilds it");
      }
    });
  }

  private changed(): void {
    this.versionCounter++;
    this.schedulePersist(this.persistDelayMs);
  }

  private schedulePersist(delayMs: number): void {
    this.dirty = true;
    if (!this.persisted) return;
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = setTimeout(() => {
      this.persistTimer = null;
      void this.persist();
    }, delayMs);
    this.persistTimer.unref();
  }

  /** First load: the persisted index when it is usable (true), else nothing changes (false). */
  private async loadPersisted(): Promise<boolean> {
    if (!this.persisted || this.triedPersisted) return false;
    this.triedPersisted = true;
    const t0 = Date.now();
    const res = await this.persisted.load(this.index);
    if ("reason" in res) {
      logger.info({ reason: res.reason }, "search index built from the store (no usable persisted index)");
      return false;
    }
    this.articles = res.views;
    this.versionCounter++;
    this.loadedPersisted = true;
    logger.info({ articles: res.views.size, ms: Date.now() - t0 }, "search index loaded from disk");
    return true;
  }

  /** Brings a loaded persisted index in step with the store in the background, searches answering meanwhile. */
  private catchUp(): void {
    this.lastCheck = 0;
    this.checking ??= this.check().finally(() => {
      this.checking = null;
      this.catchingUp = false;
    });
    this.checking.catch((err) =>
      logger.warn({ err }, "could not bring the persisted search index up to date"),
    );
  }

  /** Embed the passages a rebuild left as text only, without holding up the caller. */
  private embedInBackground(): void {
    this.lastEmbedRetry = Date.now();
    this.index.embedPending().then(
      (n) => n > 0 && logger.info({ passages: n }, "knowledge passages embedded"),
      (err) =>
        logger.warn({ err }, "embedding failed; retrieval uses text only for some passages until a retry"),
    );
  }

  /** In the background: embed passages an earlier embedding failure left as text only. */
  private retryEmbeddings(): void {
    if (!this.index.hybrid || Date.now() - this.lastEmbedRetry < this.embedRetryMs) return;
    this.lastEmbedRetry = Date.now();
    if (this.index.stats().pendingEmbeddings === 0) return;
    this.index.embedPending().then(
      (n) => n > 0 && logger.info({ passages: n }, "embedded passages left over from an earlier failure"),
      (err) => logger.warn({ err }, "embedding still failing; retrieval uses text only for some passages"),
    );
  }

  private check(): Promise<void> {
    return this.exclusive(async () => {
      if (this.stamp === null && (await this.loadPersisted())) {
        this.stamp = "persisted"; // never a store stamp: the next check compares with the store
        this.lastCheck = Date.now();
        this.catchingUp = true;
        setImmediate(() => this.catchUp());
        return;
      }
      const stamp = await storeStamp();
      this.lastCheck = Date.now();
      if (stamp === this.stamp) return;
      if (this.stamp !== null) {
        // Our own writes move the stamp too: compare (id, updatedAt) before re-reading anything.
        const heads = await ArticleModel.find({}, { _id: 1, updatedAt: 1 }).lean();
        const fp = computeFingerprint(heads.map((h) => ({ id: String(h._id), updatedAt: h.updatedAt })));
        if (fp !== this.index.fingerprint || heads.length !== this.articles.size)
          await this.applyChanges(heads);
        this.stamp = stamp;
        return;
      }
      const docs = (await ArticleModel.find({}).lean()) as unknown as ArticleRecord[];
      const views = docs.map(toView);
      // Embedding thousands of passages can take minutes: index the text now, embed afterwards.
      this.deferEmbedding = true;
      let res: Awaited<ReturnType<KnowledgeIndex["rebuildFrom"]>>;
      try {
        res = await this.index.rebuildFrom(views.map(toIndexable));
      } finally {
        this.deferEmbedding = false;
      }
      if (res.embeddingError) this.embedInBackground();
      if (res.invalid.length > 0)
        logger.warn({ invalid: res.invalid }, "articles skipped by the search index");
      this.articles = new Map(views.map((v) => [v.id, v]));
      this.stamp = stamp;
      this.versionCounter++;
      // built from the store: persist soon (not at once: the first requests come first), so the next start loads it
      this.schedulePersist(PERSIST_AFTER_BUILD_MS);
      logger.debug(
        { added: res.added, updated: res.updated, removed: res.removed },
        "knowledge index synced with the store",
      );
    });
  }

  /**
   * Re-reads only the articles whose (id, updatedAt) differ from memory's and drops the deleted ones (call
   * inside exclusive()). Their passages are embedded afterwards, in the background.
   */
  private async applyChanges(heads: { _id: unknown; updatedAt?: Date | null }[]): Promise<void> {
    const inStore = new Set<string>();
    const stale: unknown[] = [];
    for (const h of heads) {
      const id = String(h._id);
      inStore.add(id);
      if (!this.articles.has(id) || this.index.revisionOf(id) !== revisionOf({ id, updatedAt: h.updatedAt }))
        stale.push(h._id);
    }
    const gone = [...this.articles.keys()].filter((id) => !inStore.has(id));
    const docs =
      stale.length > 0
        ? ((await ArticleModel.find({ _id: { $in: stale } }).lean()) as unknown as ArticleRecord[])
        : [];
    this.deferEmbedding = true;
    let deferred = false;
    try {
      for (const view of docs.map(toView)) {
        try {
          deferred = !!(await this.index.upsertArticle(toIndexable(view))).embeddingError || deferred;
        } catch (err) {
          logger.warn({ articleId: view.id, err }, "article skipped by the search index");
          await this.index.removeArticle(view.id);
        }
        this.articles.set(view.id, view);
      }
      for (const id of gone) {
        await this.index.removeArticle(id);
        this.articles.delete(id);
      }
    } finally {
      this.deferEmbedding = false;
    }
    if (deferred) this.embedInBackground();
    if (docs.length > 0 || gone.length > 0) this.changed();
    logger.debug({ changed: docs.length, removed: gone.length }, "knowledge index caught up with the store");
  }
}

/** Article count + newest updatedAt: changes whenever any process adds, edits or deletes an article. */
async function storeStamp(): Promise<string> {
  const [count, newest] = await Promise.all([
    ArticleModel.countDocuments({}),
    ArticleModel.findOne({}, { updatedAt: 1 }).sort({ updatedAt: -1 }).lean(),
  ]);
  return `${count}:${newest?.updatedAt ? new Date(newest.updatedAt).getTime() : 0}`;
}
