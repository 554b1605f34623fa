/**
 * Articles as people read and edit them: lists, groups by category, the categories with counts, one article
 * (counting its category's views for 'Populære kategorier'), and the admin's create, edit and delete. Reads
 * come from memory (KnowledgeCatalog); writes go through the importer's single write path.
 */
import mongoose from "mongoose";
import { Errors } from "../errors";
import { logger } from "../logger";
import type { UserDoc, UserIdentity } from "../users/user.model";
import { ArticleModel, type ArticleRecord, type ArticleSource } from "./article.model";
import type { ArticleView } from "./article.presenter";
import { CATEGORY_STYLES, type CategoryStyle, categoryStyle, compareCategories } from "./categories";
import { CategoryViewModel } from "./category-view.model";
import { type KnowledgeCatalog, toView } from "./knowledge.catalog";
import type { KnowledgeImporter } from "./knowledge.import";
import { type ArticleInput, clamp, isObjectIdString, readCategory } from "./knowledge.input";

/** Articles by category, with the catalog version they were read at (equal versions = equal content). */
export interface ArticleGroups {
  version: number;
  groups: Map<string, ArticleView[]>;
}

export interface CategorySummary extends CategoryStyle {
  name: string;
  /** articles in the category */
  count: number;
}

export interface TopCategory {
  category: string;
  count: number;
}

/** For other modules: is this an existing article? Returns its id and title. */
export async function findArticleRef(
  id: string,
): Promise<{ id: mongoose.Types.ObjectId; title: string } | null> {
  if (!isObjectIdString(id)) return null;
  const doc = await ArticleModel.findById(id, { title: 1 }).lean();
  return doc ? { id: doc._id, title: doc.title } : null;
}

export class ArticlesService {
  private grouped: ArticleGroups | null = null;

  constructor(
    private readonly catalog: KnowledgeCatalog,
    private readonly importer: KnowledgeImporter,
  ) {}

  // ---- editing (admin) ----------------------------------------------------------------------------

  /** Create an article by hand (admin). It is searchable when this resolves. */
  async createArticle(actor: UserDoc, input: ArticleInput): Promise<ArticleView> {
    this.assertAdmin(actor);
    const sourceId = `manual:${new mongoose.Types.ObjectId().toHexString()}`;
    const { article } = await this.importer.saveFromSource({ ...input, source: "local", sourceId });
    return article;
  }

  /** Change an article (admin): found by its new words, and no longer by its old ones, when this resolves. */
  async updateArticle(actor: UserDoc, id: string, input: ArticleInput): Promise<ArticleView> {
    this.assertAdmin(actor);
    const doc = await this.findDoc(id);
    const { article } = await this.importer.saveFromSource({
      ...input,
      source: doc.source as ArticleSource,
      sourceId: doc.sourceId,
      sourceUrl: doc.sourceUrl ?? null,
    });
    return article;
  }

  /** Delete an article (admin): gone from lists, search and retrieval, and (through the hook) from bookmarks. */
  async deleteArticle(actor: UserDoc, id: string): Promise<void> {
    this.assertAdmin(actor);
    const doc = await this.findDoc(id);
    await this.importer.deleteById(doc._id);
  }

  private assertAdmin(actor: UserDoc): void {
    if (actor.role !== "admin") throw Errors.forbidden("knowledge.adminOnly");
  }

  /** The stored article, lean (as the catalogue reads it: the same view, and no mongoose document to copy). */
  private async findDoc(id: string): Promise<ArticleRecord> {
    if (!isObjectIdString(id)) throw Errors.notFound("knowledge.notFound");
    const doc = (await ArticleModel.findById(id).lean()) as ArticleRecord | null;
    if (!doc) throw Errors.notFound("knowledge.notFound");
    return doc;
  }

  // ---- reading ------------------------------------------------------------------------------------

  /** Every article, by title. */
  async listArticles(category?: string | null): Promise<ArticleView[]> {
    await this.catalog.ensureFresh();
    const cat = readCategory(category);
    return this.catalog
      .all()
      .filter((a) => cat === undefined || a.category === cat)
      .sort((a, b) => a.title.localeCompare(b.title, "da"));
  }

  /**
   * Articles grouped by category (spec §7 GET /api/knowledge): known categories first, in their order,
   * then the others; articles by title within each.
   */
  async articlesByCategory(): Promise<ArticleGroups> {
    await this.catalog.ensureFresh();
    const version = this.catalog.version;
    if (this.grouped?.version === version) return this.grouped;
    const groups = new Map<string, ArticleView[]>();
    for (const a of await this.listArticles()) {
      const list = groups.get(a.category) ?? [];
      list.push(a);
      groups.set(a.category, list);
    }
    const sorted = new Map([...groups.entries()].sort(([a], [b]) => compareCategories(a, b)));
    this.grouped = { version, groups: sorted };
    return this.grouped;
  }

  /** The four known categories (also when empty) and every other category that has articles, with counts. */
  async categories(): Promise<CategorySummary[]> {
    await this.catalog.ensureFresh();
    const counts = new Map<string, number>(Object.keys(CATEGORY_STYLES).map((c) => [c, 0]));
    for (const a of this.catalog.all()) counts.set(a.category, (counts.get(a.category) ?? 0) + 1);
    return [...counts.entries()]
      .sort(([a], [b]) => compareCategories(a, b))
      .map(([name, count]) => ({ name, count, ...categoryStyle(name) }));
  }

  /** An article from memory (no store read; null when unknown): for lists that show article details. */
  async peekArticle(id: string): Promise<ArticleView | null> {
    await this.catalog.ensureFresh();
    return this.catalog.get(id) ?? null;
  }

  /** One article by id, read from the store; NOT_FOUND for unknown or malformed ids. */
  async getArticle(id: string): Promise<ArticleView> {
    return toView(await this.findDoc(id));
  }

  /** A user opened an article: one article by id, counted toward its category's views. */
  async viewArticle(user: UserIdentity, id: string): Promise<ArticleView> {
    const article = await this.getArticle(id);
    try {
      await CategoryViewModel.updateOne(
        { category: article.category },
        { $inc: { views: 1 }, $set: { lastViewedAt: new Date() } },
        { upsert: true },
      );
    } catch (err) {
      // a lost view count must not hide the article
      logger.error(
        { err, userId: String(user._id), category: article.category },
        "could not count an article view",
      );
    }
    return article;
  }

  /** The most viewed categories, most first (admin statistics: 'Populære kategorier', 'N visninger'). */
  async topCategories(limit = 5): Promise<TopCategory[]> {
    const n = clamp(limit, 1, 100, 5);
    const rows = await CategoryViewModel.find({ views: { $gt: 0 } })
      .sort({ views: -1, category: 1 })
      .limit(n)
      .lean();
    return rows.map((r) => ({ category: r.category, count: r.views }));
  }
}
