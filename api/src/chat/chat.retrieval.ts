/**
 * The chat's retrieval port: what the chat asks of the knowledge base. The rule for how relevant a passage is
 * lives with search (search/search.passage-relevance.ts); the knowledge service applies it.
 */
import type { Passage } from "./answer";

/** The chat's retrieval: answer-engine passages, best first, relevance in [0, 1]. */
export type RetrieveFn = (query: string, k: number) => Promise<Passage[]>;
