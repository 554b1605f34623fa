/** Types of the answering engine (api/src/chat/answer). Pure data: no database, no transport. */
import type { LlmClient } from "../../llm/llm.types";

export type AnswerLanguage = "da" | "en";

/**
 * One retrieved passage (an article chunk). The search module's retrieve() is adapted to return these.
 * `score` is a relevance in [0, 1] (1 = best), comparable across queries: the relevance gate compares it with
 * a fixed threshold, so the adapter must normalise whatever its ranking produces (BM25, cosine, fused).
 */
export interface Passage {
  articleId: string;
  title: string;
  /** headings from the article's top down to this passage, e.g. ["Ferie", "Optjening"]; [] for the intro */
  headingPath: string[];
  text: string;
  score: number;
  /**
   * the IDF-weighted share of the question's words the passage covers, 0..1, when retrieval knows it: unlike the
   * relevance (score), which saturates near 1 for every good passage, it still tells good passages apart
   */
  coverage?: number;
  /** when the article was last updated; drives the freshness warning */
  updatedAt?: Date;
  /** link to the article in the app or in Notion */
  url?: string;
}

/** A numbered source as given to the model: passage number n is cited as [n]. */
export interface NumberedSource extends Passage {
  number: number;
  /** what a retrieval-only answer quotes of it (plain text, whole sentences); its citation stores exactly this */
  quote?: string;
}

/** One earlier turn of the conversation, oldest first. */
export interface HistoryTurn {
  role: "user" | "assistant";
  content: string;
}

/** A citation in the answer, in order of first use. */
export interface Citation {
  number: number;
  articleId: string;
  title: string;
  headingPath: string[];
  url?: string;
  /** the cited passage (shortened) */
  passage: string;
  updatedAt?: Date;
}

export interface FreshnessWarning {
  number: number;
  articleId: string;
  title: string;
  updatedAt: Date;
  /** short text in the answer language, e.g. 'Bemærk: "Ferie" [2] blev sidst opdateret 3. marts 2024 …' */
  message: string;
}

export type AnswerMode = "llm" | "retrieval" | "no_sources";
export type AnswerStatus = "complete" | "stopped" | "error";

export type AnswerErrorCode =
  | "LLM_RATE_LIMITED"
  | "LLM_UNAVAILABLE"
  | "LLM_TIMEOUT"
  | "LLM_STREAM_BROKEN"
  | "RETRIEVAL_FAILED"
  | "MESSAGE_EMPTY"
  | "MESSAGE_TOO_LONG";

export interface AnswerError {
  code: AnswerErrorCode;
  /** Danish text for people */
  message: string;
  /** whether the same question may succeed when retried */
  retryable: boolean;
  /** technical detail for the log; never show it to users */
  detail?: string;
}

export interface AnswerQuestionInput {
  /** the user's question (validate it with validateChatMessage first) */
  question: string;
  /**
   * Earlier turns, oldest first, WITHOUT the current question (a trailing user turn equal to the question is
   * ignored, so passing the stored history including it is harmless).
   */
  history: HistoryTurn[];
  /** the user's preferred language (user_preferences.language); default 'da' */
  language?: AnswerLanguage;
  /** the search module's retrieval, adapted to Passage */
  retrieve: (query: string, k: number) => Promise<Passage[]>;
  /** the LLM; absent = retrieval-only mode (the embedded default) */
  llm?: LlmClient;
  /** abort = the user pressed stop */
  signal?: AbortSignal;
  /** receives the cleaned, citation-safe text increments; their concatenation equals the final content */
  onDelta?: (delta: string) => void;
  /**
   * Called once, as soon as the answer no longer needs this process to get going: the model has been asked
   * (its request is on its way), or the answer was decided without it (retrieval-only, nothing relevant, an
   * error, a stop). Callers use it to run bookkeeping after, not before, the work the first token waits for.
   */
  onStarted?: () => void;
  /** cited articles older than this get a freshness warning; default 365 */
  staleDays?: number;
  /** "now" for the freshness check; default new Date() */
  now?: Date;
  /** passages below this score count as not relevant; default DEFAULT_MIN_SCORE, with a model LLM_MIN_SCORE */
  minScore?: number;
  /** how many passages to ask retrieve() for; default DEFAULT_RETRIEVE_K */
  k?: number;
  /** a retrieval-only or "not covered" answer ends with this line (the scope searched: "Søgt i: …") */
  scopeNote?: string;
}

export interface AnswerResult {
  /** Markdown without HTML; the citation markers in it all refer to `citations` */
  content: string;
  citations: Citation[];
  /** the source numbers cited in the content, in order of first use */
  usedNumbers: number[];
  mode: AnswerMode;
  status: AnswerStatus;
  error?: AnswerError;
  /**
   * true when the knowledge base did not cover the question: no relevant passage was found, or the model's
   * complete answer cited none of the sources it was given. The chat service records these.
   */
  knowledgeGap: boolean;
  freshnessWarnings: FreshnessWarning[];
  /** the query sent to retrieve() (the question plus the previous user turn for follow-ups) */
  retrievalQuery: string;
  /** the sources given to the model (or quoted), numbered */
  sources: NumberedSource[];
  /** the model's finish reason, when the model answered */
  finishReason?: string;
}
