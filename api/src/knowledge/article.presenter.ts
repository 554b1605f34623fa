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
  /** the Notion database a notion article came from */
  sourceDatabase: string | null;
  /** headings of a Notion page and their block ids (citations link to `<page url>#<block id>`) */
  sourceAnchors: Array<{ heading: string; blockId: string }>;
  contentHash: string;
}

/** Where an article comes from, as clients see it: the sample folder, Notion, or the API (admin, CLI). */
export interface ArticleOrigin {
  kind: "sample" | "notion" | "api";
  url: string | null;
  databaseTitle: string | null;
}

export function articleOrigin(
  a: Pick<ArticleView, "source" | "sourceId" | "sourceUrl" | "sourceDatabase">,
): ArticleOrigin {
  if (a.source === "notion") return { kind: "notion", url: a.sourceUrl, databaseTitle: a.sourceDatabase };
  return { kind: a.sourceId.startsWith("manual:") ? "api" : "sample", url: null, databaseTitle: null };
}

/** The fields the knowledge UI reads (spec §3: it also reads lastUpdated, the same instant as updatedAt). */
export type PublicArticle = Omit<
  ArticleView,
  "sourceId" | "contentHash" | "source" | "sourceDatabase" | "sourceAnchors"
> & {
  lastUpdated: Date;
  source: ArticleOrigin;
};

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
    source: articleOrigin(a),
    sourceUrl: a.sourceUrl,
  };
}

/**
 * Where a citation or a bookmark links to: the Notion page (at the passage's heading when its block is known),
 * or the article in the app.
 */
export function articleUrl(
  a: Pick<ArticleView, "id" | "sourceUrl"> & { sourceAnchors?: ArticleView["sourceAnchors"] },
  headingPath: string[] = [],
): string {
  if (!a.sourceUrl) return `/knowledge?article=${encodeURIComponent(a.id)}`;
  const heading = headingPath.at(-1);
  const anchor = heading ? a.sourceAnchors?.find((x) => x.heading === heading) : undefined;
  return anchor ? `${a.sourceUrl}#${anchor.blockId}` : a.sourceUrl;
}
