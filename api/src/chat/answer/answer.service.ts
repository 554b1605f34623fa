/**
 * The answering engine the chat service calls for each question: retrieve → relevance gate → (LLM stream with
 * citation-safe deltas | retrieval-only quotes | "not in the knowledge base") → citations, freshness warnings.
 * Pure: no database, no transport. The service stores the user message first, calls answerQuestion, publishes
 * the deltas, and stores the result (also when status is 'error' or 'stopped').
 */

import { formatMessage, validateChatMessage } from "@vidensbank/shared";
import { isLlmError, LlmAbortedError } from "../../llm/llm.errors";
import { HtmlStripper } from "../../markdown/sanitize";
import { buildCitations, CitationFilter, extractCitationNumbers } from "./citations";
import { DEFAULT_STALE_DAYS, freshnessWarnings } from "./freshness";
import { buildChatMessages, numberSources } from "./prompt";
import { passagesToQuote, quoteOf } from "./quotes";
import { buildRetrievalAnswer } from "./retrieval-answer";
import { chooseRetrieval, retrievalQueries } from "./retrieval-query";
import { answerTexts, truncatedNote } from "./texts";
import type {
  AnswerError,
  AnswerMode,
  AnswerQuestionInput,
  AnswerResult,
  AnswerStatus,
  HistoryTurn,
  NumberedSource,
  Passage,
} from "./types";

/** passages scoring below this (relevance in [0, 1]) do not count as relevant (retrieval-only mode) */
export const DEFAULT_MIN_SCORE = 0.25;
/**
 * With a model, passages from this relevance are given to it: the model checks relevance too (prompt rule 4: it
 * says when the sources do not answer, and an answer citing none counts as a knowledge gap), so the gate only
 * keeps the clearly unrelated from it. On the evaluation sets the gate's false "not covered" at 0.15 is 0–3.6 %
 * against 1.7–8.2 % at 0.25 (bench:answers --split), at the price of 25–41 % of off-topic questions reaching
 * the model instead of 4–27 %.
 */
export const LLM_MIN_SCORE = 0.15;
/**
 * passages asked from retrieve(): more than the model is given, since the chat takes the best by relevance (the
 * gate's evidence), which the retrieval's own ranking does not always put in its first few
 */
export const DEFAULT_RETRIEVE_K = 12;
/** at most this many relevant passages are given to the model as numbered sources */
export const MODEL_SOURCES_MAX = 6;

/** Relevant passages, best first, without duplicates. */
function relevantPassages(passages: Passage[], minScore: number): Passage[] {
  const seen = new Set<string>();
  return passages
    .filter((p) => Number.isFinite(p.score) && p.score >= minScore && p.text.trim().length > 0)
    .sort((a, b) => b.score - a.score)
    .filter((p) => {
      const key = `${p.articleId}\u0000${p.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * Start now the retrieval answerQuestion will make for this question and history (e.g. while the question is
 * being stored) and pass the result to answerQuestion as its `retrieve`: it is handed the early result once,
 * for that query; anything else goes to `retrieve` as usual.
 */
export function prefetchRetrieval(
  question: string,
  history: HistoryTurn[],
  retrieve: AnswerQuestionInput["retrieve"],
  k = DEFAULT_RETRIEVE_K,
): AnswerQuestionInput["retrieve"] {
  const query = retrievalQueries(question, history)[0];
  let early: Promise<Passage[]> | null = retrieve(query, k);
  // a question that is never answered (its insert failed) must not leave an unhandled rejection
  early.catch(() => undefined);
  return (q, n) => {
    if (early && q === query && n === k) {
      const taken = early;
      early = null;
      return taken;
    }
    return retrieve(q, n);
  };
}

/**
 * Answer one chat question. Never throws for expected failures: retrieval errors, LLM errors and aborts come
 * back as status 'error' / 'stopped' with a Danish message and the text produced so far.
 * `onDelta` receives the cleaned text increments (HTML removed, citation markers final); their concatenation is
 * exactly `content`.
 */
export async function answerQuestion(input: AnswerQuestionInput): Promise<AnswerResult> {
  // stored preferences are strings: anything but 'en' answers in Danish
  const language = input.language === "en" ? "en" : "da";
  const now = input.now ?? new Date();
  const staleDays = input.staleDays ?? DEFAULT_STALE_DAYS;
  const minScore = input.minScore ?? (input.llm ? LLM_MIN_SCORE : DEFAULT_MIN_SCORE);
  const k = input.k ?? DEFAULT_RETRIEVE_K;

  let started = false;
  const markStarted = () => {
    if (started) return;
    started = true;
    try {
      input.onStarted?.();
    } catch {
      // bookkeeping of the caller; the answer goes on
    }
  };
  let content = "";
  const emit = (text: string) => {
    if (!text) return;
    markStarted();
    content += text;
    try {
      input.onDelta?.(text);
    } catch {
      // a failed live delivery must not lose the answer: the stored message is what counts
    }
  };
  let retrievalQuery = "";
  let sources: NumberedSource[] = [];
  const finish = (
    mode: AnswerMode,
    status: AnswerStatus,
    extra: { error?: AnswerError; knowledgeGap?: boolean; finishReason?: string } = {},
  ): AnswerResult => {
    markStarted();
    const usedNumbers = extractCitationNumbers(content).filter((n) => sources.some((s) => s.number === n));
    const citations = buildCitations(usedNumbers, sources);
    const warnings = status === "complete" ? freshnessWarnings(citations, { now, staleDays, language }) : [];
    if (warnings.length > 0) emit(`\n\n${warnings.map((w) => w.message).join("\n\n")}`);
    return {
      content,
      citations,
      usedNumbers,
      mode,
      status,
      ...(extra.error ? { error: extra.error } : {}),
      knowledgeGap: extra.knowledgeGap ?? false,
      freshnessWarnings: warnings,
      retrievalQuery,
      sources,
      ...(extra.finishReason ? { finishReason: extra.finishReason } : {}),
    };
  };
  const initialMode: AnswerMode = input.llm ? "llm" : "retrieval";

  const valid = validateChatMessage(input.question);
  if (!valid.ok) {
    return finish("no_sources", "error", {
      error: { code: valid.code, message: valid.message, retryable: false },
    });
  }
  const question = valid.content;
  if (input.signal?.aborted) return finish(initialMode, "stopped");

  // 1. retrieval: the question alone and, with earlier turns, also with them (retrievalQueries); chooseRetrieval
  //    decides from what each found whether the question continues the earlier topic
  // 2. relevance gate: nothing relevant → say so; the LLM is not asked
  const queries = retrievalQueries(question, input.history);
  let found: Passage[][];
  try {
    found = await Promise.all(queries.map((q) => input.retrieve(q, k)));
  } catch (err) {
    if (input.signal?.aborted) return finish(initialMode, "stopped");
    retrievalQuery = queries[0];
    return finish(initialMode, "error", {
      error: {
        code: "RETRIEVAL_FAILED",
        message: formatMessage("chat.retrievalFailed"),
        retryable: true,
        detail: err instanceof Error ? err.message : String(err),
      },
    });
  }
  if (input.signal?.aborted) return finish(initialMode, "stopped");
  const relevantOf = found.map((passages) => relevantPassages(passages, minScore));
  const pick =
    queries.length === 1 ||
    chooseRetrieval(question, input.history, relevantOf[0], relevantOf[1]).choice === "alone"
      ? 0
      : 1;
  retrievalQuery = queries[pick];
  const passages = found[pick];
  const relevant = relevantOf[pick];
  if (relevant.length === 0) {
    emit(answerTexts[language].notCovered);
    if (input.scopeNote) emit(`\n\n${input.scopeNote}`);
    return finish("no_sources", "complete", { knowledgeGap: true });
  }

  // 3a. retrieval-only mode
  if (!input.llm) {
    const quoted = passagesToQuote(
      relevant,
      passages.filter((p) => Number.isFinite(p.score) && p.text.trim()),
      undefined,
      retrievalQuery,
    );
    sources = numberSources(quoted).map((s, i) => ({ ...s, quote: quoteOf(quoted[i].text, retrievalQuery) }));
    emit(buildRetrievalAnswer(sources, language));
    if (input.scopeNote) emit(`\n\n${input.scopeNote}`);
    return finish("retrieval", "complete");
  }

  // 3b. the model writes the answer from the numbered sources
  sources = numberSources(relevant.slice(0, Math.min(k, MODEL_SOURCES_MAX)));
  const messages = buildChatMessages({ question, history: input.history, sources, language });
  // HTML goes last: the citation filter removes invalid markers, and a removal before the HTML sanitiser could
  // join `<` and `script` (`<[9]script>`). What the sanitiser emits is final.
  const cites = new CitationFilter(new Set(sources.map((s) => s.number)));
  const html = new HtmlStripper();
  const flush = () => emit(html.push(cites.end()) + html.end());
  try {
    const streaming = input.llm.streamChat(messages, {
      signal: input.signal,
      onToken: (token) => emit(html.push(cites.push(token))),
    });
    // the request is under way (streamChat starts it before its first await)
    markStarted();
    const res = await streaming;
    flush();
    if (content.trim().length === 0) {
      return finish("llm", "error", {
        error: {
          code: "LLM_UNAVAILABLE",
          message: formatMessage("chat.emptyAnswer"),
          retryable: true,
          detail: "empty answer",
        },
        finishReason: res.finishReason,
      });
    }
    if (res.finishReason === "length") emit(`\n\n${truncatedNote[language]}`);
    const cited = extractCitationNumbers(content).length > 0;
    // a complete answer citing none of the sources means they did not cover the question
    return finish("llm", "complete", { knowledgeGap: !cited, finishReason: res.finishReason });
  } catch (err) {
    flush();
    if (err instanceof LlmAbortedError) return finish("llm", "stopped");
    if (isLlmError(err) && err.code !== "LLM_ABORTED") {
      return finish("llm", "error", {
        error: { code: err.code, message: err.message, retryable: err.retryable, detail: err.detail },
      });
    }
    return finish("llm", "error", {
      error: {
        code: "LLM_UNAVAILABLE",
        message: formatMessage("llm.unavailable"),
        retryable: true,
        detail: err instanceof Error ? err.message : String(err),
      },
    });
  }
}
