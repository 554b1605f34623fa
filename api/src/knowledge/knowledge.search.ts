/**
 * Full-text search for people: Danish stemming, typo tolerance and compound prefixes (the search index), with
 * a snippet and highlight ranges per hit, optionally within one category, paged. A signed-in user's search is
 * handed to the recent-search recorder (their recent searches and the activity log's `search` entries).
 */
import type { QueryCorrection, TextRange } from "../search/search.types";
import type { UserIdentity } from "../users/user.model";
import type { ArticleView } from "./article.presenter";
import type { KnowledgeCatalog } from "./knowledge.catalog";
import { clamp, readCategory, readQuery } from "./knowledge.input";
import type { RecentSearchRecorder } from "./recent-searches.recorder";

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
/** Results further down than this cannot be paged to (the index ranks offset + limit documents). */
export const SEARCH_OFFSET_MAX = 10_000;

export interface SearchInput {
  query: unknown;
  category?: unknown;
  limit?: number | null;
  offset?: number | null;
}

export interface KnowledgeSearchHit {
  article: ArticleView;
  score: number;
  snippet: string;
  highlights: TextRange[];
  titleHighlights: TextRange[];
}

export interface KnowledgeSearchResult {
  hits: KnowledgeSearchHit[];
  total: number;
  /** the text actually searched (trimmed; cut when long) */
  query: string;
  truncated: boolean;
  /** words replaced by a close indexed word (typos) */
  corrections: QueryCorrection[];
}

export class KnowledgeSearch {
  constructor(
    private readonly catalog: KnowledgeCatalog,
    private readonly recorder: RecentSearchRecorder,
  ) {}

  /**
   * Search the articles. Empty or stop-word-only queries give no hits; BAD_USER_INPUT for a query that is not
   * text or longer than MAX_SEARCH_INPUT, or an invalid category. A non-empty search by a signed-in user is
   * kept in their recent searches and logged as `search` (the first page only: paging is the same search).
   */
  async search(user: UserIdentity | null, input: SearchInput): Promise<KnowledgeSearchResult> {
    const raw = readQuery(input.query);
    const category = readCategory(input.category);
    const limit = clamp(input.limit, 1, SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT);
    const offset = clamp(input.offset, 0, SEARCH_OFFSET_MAX, 0);
    await this.catalog.ensureFresh();
    const res = this.catalog.index.search(raw, { limit, offset, category });
    const hits: KnowledgeSearchHit[] = [];
    for (const h of res.hits) {
      const article = this.catalog.get(h.articleId);
      if (!article) continue;
      hits.push({
        article,
        score: h.score,
        snippet: h.snippet,
        highlights: h.highlights,
        titleHighlights: h.titleHighlights,
      });
    }
    const result: KnowledgeSearchResult = {
      hits,
      total: res.total,
      query: res.query.text,
      truncated: res.query.truncated,
      corrections: res.query.corrections,
    };
    if (user && result.query && offset === 0) {
      this.recorder.record(user, { query: result.query, category: category ?? null, results: result.total });
    }
    return result;
  }
}
