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
import { computeFingerprint } from "../search/search.fingerprint";
import { KnowledgeIndex } from "../search/search.index";
import type { EmbedFunction, IndexableArticle } from "../search/search.types";
import { ArticleModel, type ArticleRecord } from "./article.model";
import type { ArticleView } from "./article.presenter";

export const DEFAULT_CHECK_INTERVAL_MS = 2_000;
const DEFERRED = "embedding deferred until the index is built";
/** Passages left without a vector (the embedding service failed) are retried at most this often. */
export const DEFAULT_EMBED_RETRY_MS = 60_000;

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
}

export class KnowledgeCatalog {
  readonly index: KnowledgeIndex;
  private articles = new Map<string, ArticleView>();
  private readonly checkIntervalMs: number;
  /** the store stamp the memory was last found in step with; null = never loaded */
  private stamp: string | null = null;
  private lastCheck = 0;
  private checking: Promise<void> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private versionCounter = 0;
  private readonly embedRetryMs: number;
  private lastEmbedRetry = Date.now();
  /** true while a (re)build runs: its passages are embedded afterwards, in the background */
  private deferEmbedding = false;

  constructor(options: CatalogOptions = {}) {
    const embed = options.embed;
    this.index = new KnowledgeIndex({
      embed: embed && ((texts) => (this.deferEmbedding ? Promise.reject(new Error(DEFERRED)) : embed(texts))),
    });
    this.checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
    this.embedRetryMs = options.embedRetryMs ?? DEFAULT_EMBED_RETRY_MS;
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
   * stamp at most every checkIntervalMs (concurrent callers share one check).
   */
  async ensureFresh(): Promise<void> {
    this.retryEmbeddings();
    if (this.stamp !== null && Date.now() - this.lastCheck < this.checkIntervalMs) return;
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    try {
      await this.checking;
    } catch (err) {
      if (this.stamp === null) throw err; // nothing loaded yet: nothing to answer from
      // the store did not answer the check: answer from memory (possibly a little stale) and try again later
      this.lastCheck = Date.now();
      logger.warn({ err }, "could not check the store for knowledge changes; answering from memory");
    }
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
    this.versionCounter++;
  }

  /** Take a deleted article out of memory (call inside exclusive(), after the store delete). */
  async remove(id: string): Promise<void> {
    await this.index.removeArticle(id);
    this.articles.delete(id);
    this.versionCounter++;
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
      const stamp = await storeStamp();
      this.lastCheck = Date.now();
      if (stamp === this.stamp) return;
      if (this.stamp !== null) {
        // Our own writes move the stamp too: compare (id, updatedAt) before re-reading whole articles.
        const heads = await ArticleModel.find({}, { _id: 1, updatedAt: 1 }).lean();
        const fp = computeFingerprint(heads.map((h) => ({ id: String(h._id), updatedAt: h.updatedAt })));
        if (fp === this.index.fingerprint && heads.length === this.articles.size) {
          this.stamp = stamp;
          return;
        }
      }
      const docs = (await ArticleModel.find({}).lean()) as ArticleRecord[];
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
      this.versionCounter++;
      this.stamp = stamp;
      logger.debug(
        { added: res.added, updated: res.updated, removed: res.removed },
        "knowledge index synced with the store",
      );
    });
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
