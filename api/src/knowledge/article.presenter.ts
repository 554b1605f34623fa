/** Shapes of an article as clients see them (never sourceId or contentHash). */
import type { ArticleSource } from "./article.model";

/** An article as the knowledge service holds it in memory. */
export interface ArticleView {
  id: string;
  title: string;
  content: string;
  category: string;
  subcategory: string | null;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
  source: ArticleSource;
  sourceId: string;
  sourceUrl: string | null;
  contentHash: string;
}

/** The fields the knowledge UI reads (spec §3: it also reads lastUpdated, the same instant as updatedAt). */
export type PublicArticle = Omit<ArticleView, "sourceId" | "contentHash"> & { lastUpdated: Date };

export function presentArticle(a: ArticleView): PublicArticle {
  return {
    id: a.id,
    title: a.title,
    content: a.content,
    category: a.category,
    subcategory: a.subcategory,
    tags: a.tags,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    lastUpdated: a.updatedAt,
    source: a.source,
    sourceUrl: a.sourceUrl,
  };
}

/** Where a citation or a bookmark links to: the Notion page, or the article in the app. */
export function articleUrl(a: Pick<ArticleView, "id" | "sourceUrl">): string {
  return a.sourceUrl ?? `/knowledge?article=${encodeURIComponent(a.id)}`;
}
