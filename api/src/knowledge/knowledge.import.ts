/**
 * Writing articles into the knowledge base. Every write goes through here: saveFromSource() creates or updates
 * the article of an external source (identified by source + the id it has there: a file's relative path, a
 * Notion page id), and is what the folder import (the sample content, `vidensbank knowledge import DIR`), the
 * Notion sync and the admin's own edits call. Each write updates the store, then memory and the search index,
 * one write at a time (KnowledgeCatalog.exclusive).
 *
 * Other features keep copies of article data (bookmarks keep the title): they hear of a deleted or renamed
 * article through KnowledgeHooks, wired in services.ts. This module never writes another feature's collections.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import mongoose from "mongoose";
import { logger } from "../logger";
import { type ArticleDoc, ArticleModel, type ArticleRecord, type ArticleSource } from "./article.model";
import type { ArticleView } from "./article.presenter";
import { loadContentDir } from "./content";
import { type KnowledgeCatalog, toView } from "./knowledge.catalog";
import { type ArticleInput, validateArticleInput } from "./knowledge.input";

/** The repository's sample articles, imported on the first start of an empty store. */
export const SAMPLE_CONTENT_DIR = fileURLToPath(new URL("../../../content", import.meta.url));

/** knowledge_meta document recording that the first start has happened (the samples were offered). */
const SAMPLE_MARKER = "sample-content";

export interface SourcedArticleInput extends ArticleInput {
  source: ArticleSource;
  /** the idempotency key within the source: a local file's relative path, a Notion page id */
  sourceId: string;
  sourceUrl?: string | null;
  /** the Notion database title (shown as where the article comes from) */
  sourceDatabase?: string | null;
  /** a Notion page's headings and their block ids (citation anchors) */
  sourceAnchors?: Array<{ heading: string; blockId: string }>;
  /** computed from the fields when absent */
  contentHash?: string;
}

export type SaveStatus = "created" | "updated" | "unchanged";

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  total: number;
}

/**
 * What other features hear about article changes, to keep their own data in step (wired in services.ts).
 * A hook runs after the store write and before memory changes, inside the write's turn; when it fails, the
 * caller gets the error (as for any failed write) and memory catches up with the store on its next check.
 */
export interface KnowledgeHooks {
  /** An article was deleted: remove what refers to it. */
  articleDeleted?: (articleId: string) => Promise<void>;
  /** An article's title changed: update copies of it. */
  articleRenamed?: (articleId: string, title: string) => Promise<void>;
}

/** sha256 of the fields an article shows (for articles that do not bring their own hash). */
export function hashArticle(a: ArticleInput): string {
  return createHash("sha256")
    .update(JSON.stringify([a.title, a.category, a.subcategory ?? null, a.tags ?? [], a.content]))
    .digest("hex");
}

export class KnowledgeImporter {
  constructor(
    private readonly catalog: KnowledgeCatalog,
    private readonly hooks: KnowledgeHooks = {},
    private readonly sampleContentDir: string = SAMPLE_CONTENT_DIR,
  ) {}

  /**
   * Start-up: on the first start of an empty store, import the sample content; then load the articles into
   * memory and the search index. Safe to call on every start: a store that has (or once had) articles is
   * never filled again, so an admin who removed the samples does not get them back on restart.
   */
  async ensureSampleContent(): Promise<ImportResult | null> {
    let result: ImportResult | null = null;
    const meta = mongoose.connection.collection<{ _id: string; importedAt: Date }>("knowledge_meta");
    const empty = (await ArticleModel.countDocuments({})) === 0;
    if (empty && !(await meta.findOne({ _id: SAMPLE_MARKER }))) {
      if (fs.existsSync(this.sampleContentDir)) {
        result = await this.importDirectory(this.sampleContentDir);
        logger.info(result, "sample knowledge imported");
      } else {
        logger.warn(
          { dir: this.sampleContentDir },
          "no sample content folder; the knowledge base starts empty",
        );
      }
    }
    await meta.updateOne(
      { _id: SAMPLE_MARKER },
      { $setOnInsert: { importedAt: new Date() } },
      { upsert: true },
    );
    await this.catalog.refresh();
    return result;
  }

  /**
   * Import every Markdown file under `dir` (front matter: title, category, subcategory, tags) as a local
   * article keyed by its relative path: new paths are created, changed files updated, unchanged files not
   * written. Throws ContentError (naming the file and field) before writing anything when a file is invalid.
   */
  async importDirectory(dir: string): Promise<ImportResult> {
    const files = await loadContentDir(dir);
    const result: ImportResult = { created: 0, updated: 0, unchanged: 0, total: files.length };
    for (const f of files) {
      const { status } = await this.saveFromSource({
        source: "local",
        sourceId: f.sourcePath,
        title: f.title,
        content: f.content,
        category: f.category,
        subcategory: f.subcategory ?? null,
        tags: f.tags,
        contentHash: f.contentHash,
      });
      result[status]++;
    }
    return result;
  }

  /**
   * Create or update the article of (source, sourceId): unchanged content hash (and link) = no write. Searchable
   * by its new words when this resolves. A changed title is announced (articleRenamed). BAD_USER_INPUT naming
   * every wrong field.
   */
  async saveFromSource(source: SourcedArticleInput): Promise<{ status: SaveStatus; article: ArticleView }> {
    const fields = validateArticleInput(source);
    const contentHash = source.contentHash ?? hashArticle(fields);
    const sourceUrl = source.sourceUrl ?? null;
    const sourceDatabase = source.sourceDatabase ?? null;
    const sourceAnchors = source.sourceAnchors ?? [];
    const anchorsKey = JSON.stringify(sourceAnchors);
    const attempt = async (retried: boolean): Promise<{ status: SaveStatus; article: ArticleView }> => {
      const existing = await ArticleModel.findOne({ source: source.source, sourceId: source.sourceId });
      if (
        existing &&
        existing.contentHash === contentHash &&
        (existing.sourceUrl ?? null) === sourceUrl &&
        (existing.sourceDatabase ?? null) === sourceDatabase &&
        JSON.stringify(
          (existing.sourceAnchors ?? []).map((x) => ({ heading: x.heading, blockId: x.blockId })),
        ) === anchorsKey
      ) {
        return { status: "unchanged", article: toView(existing.toObject() as ArticleRecord) };
      }
      if (!existing) {
        let created: ArticleDoc;
        try {
          created = await ArticleModel.create({
            ...fields,
            source: source.source,
            sourceId: source.sourceId,
            sourceUrl,
            sourceDatabase,
            sourceAnchors,
            contentHash,
          });
        } catch (err) {
          // another process (a second server starting, the CLI) created it a moment ago: update that one
          if ((err as { code?: number }).code === 11000 && !retried) return attempt(true);
          throw err;
        }
        const view = toView(created.toObject() as ArticleRecord);
        await this.catalog.apply(view);
        return { status: "created", article: view };
      }
      const oldTitle = existing.title;
      existing.set({ ...fields, sourceUrl, sourceDatabase, sourceAnchors, contentHash });
      await existing.save();
      const view = toView(existing.toObject() as ArticleRecord);
      if (oldTitle !== view.title) await this.hooks.articleRenamed?.(view.id, view.title);
      await this.catalog.apply(view);
      return { status: "updated", article: view };
    };
    return this.catalog.exclusive(() => attempt(false));
  }

  /** Delete the article of (source, sourceId) if there is one (importers: a Notion page archived). */
  async deleteFromSource(source: ArticleSource, sourceId: string): Promise<boolean> {
    const doc = await ArticleModel.findOne({ source, sourceId }, { _id: 1 }).lean();
    if (!doc) return false;
    await this.deleteById(doc._id as mongoose.Types.ObjectId);
    return true;
  }

  /** Delete an article: from the store, then (articleDeleted) what others keep of it, then memory and search. */
  async deleteById(id: mongoose.Types.ObjectId): Promise<void> {
    await this.catalog.exclusive(async () => {
      await ArticleModel.deleteOne({ _id: id });
      await this.hooks.articleDeleted?.(String(id));
      await this.catalog.remove(String(id));
    });
  }
}
