/**
 * The chat's retrieval port: what the chat asks of the knowledge base. The rule for how relevant a passage is
 * lives with search (search/search.passage-relevance.ts); the knowledge service applies it.
 */
import type { Passage } from "./answer";

/**
 * Which articles a retrieval may use (a session's scope): a category and/or a set of article ids (an empty set:
 * none). The knowledge side applies it before ranking and before the relevance gate.
 */
export interface RetrieveFilter {
  category?: string;
  articleIds?: string[];
}

/** The chat's retrieval: answer-engine passages, best first, relevance in [0, 1]. */
export type RetrieveFn = (query: string, k: number, filter?: RetrieveFilter) => Promise<Passage[]>;
