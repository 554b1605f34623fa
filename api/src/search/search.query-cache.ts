/**
 * The analysed form of recent queries. Analysing a query (stemming, dictionary look-ups, compound splitting,
 * typo correction, lexicon and compound-head expansion) costs about as much as scoring it, and the same text
 * comes back often: search-as-you-type, the chat searching and retrieving the same question, popular questions.
 * Entries are valid for one version of the index (its vocabulary); the oldest-used go first.
 */
import { type AnalysedQuery, analyseQuery } from "./search.query";

export { type AnalysedQuery, analyseQuery };

/** How many analysed queries are kept. */
export const QUERY_CACHE_SIZE = 500;
/** Queries longer than this are analysed every time (MAX_QUERY_LENGTH cuts them anyway; keeps keys small). */
export const MAX_CACHED_QUERY = 512;

/** At most this many ranked candidate lists are kept per cached query (by database, category and depth). */
const RANKINGS_PER_QUERY = 8;

export class QueryCache {
  private readonly entries = new Map<string, AnalysedQuery>();
  /** Per cached query: BM25 + coverage rankings, dropped with the query (same index version by construction). */
  private readonly rankings = new WeakMap<AnalysedQuery, Map<string, unknown>>();
  private version = -1;

  constructor(private readonly size = QUERY_CACHE_SIZE) {}

  /** The cached analysis of `query` at `version`, else `analyse()`'s result, kept (the entry is read-only). */
  get(query: string, version: number, analyse: () => AnalysedQuery): AnalysedQuery {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const hit = this.entries.get(query);
    if (hit) {
      this.entries.delete(query);
      this.entries.set(query, hit);
      return hit;
    }
    const q = analyse();
    this.entries.set(query, q);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as string);
    return q;
  }

  /**
   * The ranking `rank()` gives for `q` under `key` (database, category, depth), kept with the query while it is
   * cached: the same question asked again is not scored again. The result is shared: read it, never change it.
   */
  ranking<T>(q: AnalysedQuery, key: string, rank: () => T): T {
    let kept = this.rankings.get(q);
    if (kept?.has(key)) return kept.get(key) as T;
    const ranked = rank();
    if (!kept) {
      kept = new Map();
      this.rankings.set(q, kept);
    }
    if (kept.size >= RANKINGS_PER_QUERY) kept.clear();
    kept.set(key, ranked);
    return ranked;
  }
}
