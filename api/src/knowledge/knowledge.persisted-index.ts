/**
 * The search index and the articles in memory, persisted in DATA_DIR/search-index.bin so a restart answers
 * searches within a second or two instead of rebuilding the index from every article (~30 s at 20,000).
 *
 * The file holds the index (search.persist.ts) and what the catalog keeps of each article beyond it (dates,
 * source), with: the format key of the code that built it (another analyser, lexicon or layout → not loaded),
 * the store it was built from (an id kept in the store's knowledge_meta, so a DATA_DIR pointed at another
 * database never serves that one's articles), the embedding model (vectors of another model are not reused)
 * and the fingerprint of the (id, updatedAt) pairs it holds. After loading, the catalog compares those pairs
 * with the store and re-indexes only what changed (knowledge.catalog.ts).
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import mongoose from "mongoose";
import type { KnowledgeIndex } from "../search/search.index";
import { indexFormatKey, snapshotIndex } from "../search/search.persist";
import { type ReadResult, readSnapshotFile, writeSnapshotFile } from "../search/search.snapshot-file";
import type { StoredArticle } from "../search/search.stored";
import type { ArticleSource } from "./article.model";
import type { ArticleView } from "./article.presenter";

export const SEARCH_INDEX_FILE = "search-index.bin";
/** Below this many articles a start builds the index in well under a second: nothing is persisted. */
export const PERSIST_MIN_ARTICLES = 500;

const STORE_ID = "search-index-store";
/** A read started by prefetchPersistedIndex() and not taken by a load() within this long is dropped. */
const PREFETCH_KEEP_MS = 60_000;

/** The persisted index's file in DATA_DIR. */
export function searchIndexFile(dataDir: string): string {
  return path.join(dataDir, SEARCH_INDEX_FILE);
}

/** Reads started before the database is connected (start.ts), each taken by the first load() of its file. */
const prefetched = new Map<string, Promise<ReadResult<Meta>>>();

/**
 * Starts reading (and checking) the persisted index now, while the server connects to the database: the file
 * is read and its checksum worked out in the thread pool, its JSON parsed between the connection's round trips.
 * The first load() of the same file takes the result (it still checks store, model and fingerprint). Resolves
 * when the read is done (never rejects; start.ts does not wait for it).
 */
export function prefetchPersistedIndex(file: string): Promise<void> {
  let read = prefetched.get(file);
  if (!read) {
    const started = readSnapshotFile<Meta>(file, indexFormatKey());
    prefetched.set(file, started);
    setTimeout(() => {
      if (prefetched.get(file) === started) prefetched.delete(file);
    }, PREFETCH_KEEP_MS).unref();
    read = started;
  }
  return read.then(() => undefined);
}

function takeRead(file: string): Promise<ReadResult<Meta>> {
  const read = prefetched.get(file);
  prefetched.delete(file);
  return read ?? readSnapshotFile<Meta>(file, indexFormatKey());
}

interface Meta {
  storeId: string;
  embedModel: string | null;
  fingerprint: string;
  articles: number;
  savedAt: string;
}

/**
 * What the catalog keeps of an article beyond the index: [id, createdAt, updatedAt, source, sourceId, sourceUrl,
 * contentHash, fields, origin]. `origin` (a Notion article's database title and heading anchors) is null for
 * other articles and absent in files written before it existed.
 */
type ViewRow = [
  string,
  number,
  number,
  string,
  string,
  string | null,
  string,
  ViewFields | null,
  ViewOrigin | null | undefined,
];
type ViewOrigin = [string | null, Array<{ heading: string; blockId: string }>];
/** The indexed fields, written only when they differ from the index's copy (which the index cleaned). */
type ViewFields = [string, string, string, string | null, string[]];

interface CatalogJson {
  index: ReturnType<typeof snapshotIndex>["json"];
  views: ViewRow[];
}

/** The store's id for persisted indexes (created on first use). */
async function storeId(): Promise<string> {
  const meta = mongoose.connection.collection<{ _id: string; value: string }>("knowledge_meta");
  const found = await meta.findOne({ _id: STORE_ID });
  if (found?.value) return found.value;
  await meta.updateOne(
    { _id: STORE_ID },
    { $setOnInsert: { value: randomBytes(12).toString("hex") } },
    { upsert: true },
  );
  return (await meta.findOne({ _id: STORE_ID }))?.value ?? "";
}

function sameFields(v: ArticleView, a: StoredArticle | undefined): boolean {
  return (
    a !== undefined &&
    a.title === v.title &&
    a.content === v.content &&
    a.category === v.category &&
    (a.subcategory ?? null) === (v.subcategory ?? null) &&
    a.tags.length === v.tags.length &&
    a.tags.every((t, i) => t === v.tags[i])
  );
}

export class PersistedIndex {
  constructor(
    readonly file: string,
    private readonly embedModel: string | null,
    readonly minArticles = PERSIST_MIN_ARTICLES,
  ) {}

  /**
   * Loads the file into `index` and returns the articles it was built from, or null (with the reason) when
   * there is no usable file; the index is then as it was.
   */
  async load(index: KnowledgeIndex): Promise<{ views: Map<string, ArticleView> } | { reason: string }> {
    // the store's id asked while the file is read
    const id = storeId();
    id.catch(() => undefined); // awaited below when the file is usable
    const read = await takeRead(this.file);
    if (!read.ok) return { reason: read.reason };
    const meta = read.file.meta;
    if (meta?.storeId !== (await id)) return { reason: "built from another store" };
    if ((meta.embedModel ?? null) !== this.embedModel)
      return { reason: "built with another embedding model" };
    performance.mark("search-index:store id");
    const json = read.file.json as CatalogJson;
    try {
      const { ints, floats, text } = read.file;
      await index.restore({ json: json.index, ints, floats, text });
    } catch (err) {
      return { reason: err instanceof Error ? err.message : String(err) };
    }
    if (index.fingerprint !== meta.fingerprint) {
      await index.rebuildFrom([], { force: true });
      return { reason: "fingerprint differs from the header" };
    }
    performance.mark("search-index:restored");
    const stored = index.persistedState().articles;
    const views = new Map<string, ArticleView>();
    for (const [
      id,
      createdAt,
      updatedAt,
      source,
      sourceId,
      sourceUrl,
      contentHash,
      fields,
      origin,
    ] of json.views) {
      const a = stored.get(id);
      const [title, content, category, subcategory, tags] = fields ?? [
        a?.title ?? "",
        a?.content ?? "",
        a?.category ?? "",
        a?.subcategory ?? null,
        a?.tags ?? [],
      ];
      views.set(id, {
        id,
        title,
        content,
        category,
        subcategory,
        tags: [...tags],
        createdAt: new Date(createdAt),
        updatedAt: new Date(updatedAt),
        source: source as ArticleSource,
        sourceId,
        sourceUrl,
        sourceDatabase: origin?.[0] ?? null,
        sourceAnchors: origin?.[1] ?? [],
        contentHash,
      });
    }
    performance.mark("search-index:articles' metadata");
    return { views };
  }

  /** Writes the index and the articles (taken at one instant, then written atomically). */
  async save(index: KnowledgeIndex, views: Map<string, ArticleView>): Promise<number> {
    const id = await storeId();
    // from here to the write, synchronous: index and views are taken between two changes
    const state = index.persistedState();
    const snap = snapshotIndex(state);
    const rows: ViewRow[] = [];
    for (const v of views.values()) {
      const a = state.articles.get(v.id);
      rows.push([
        v.id,
        new Date(v.createdAt).getTime(),
        new Date(v.updatedAt).getTime(),
        v.source,
        v.sourceId,
        v.sourceUrl ?? null,
        v.contentHash,
        sameFields(v, a) ? null : [v.title, v.content, v.category, v.subcategory ?? null, v.tags],
        v.sourceDatabase || v.sourceAnchors?.length
          ? [v.sourceDatabase ?? null, v.sourceAnchors ?? []]
          : null,
      ]);
    }
    const meta: Meta = {
      storeId: id,
      embedModel: this.embedModel,
      fingerprint: index.fingerprint,
      articles: state.articles.size,
      savedAt: new Date().toISOString(),
    };
    const json: CatalogJson = { index: snap.json, views: rows };
    return writeSnapshotFile(this.file, {
      key: indexFormatKey(),
      meta,
      json,
      ints: snap.ints,
      floats: snap.floats,
      text: snap.text,
    });
  }
}
