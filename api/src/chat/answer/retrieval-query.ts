/**
 * Which query retrieves a chat question's passages: the question alone, or the question with the previous user
 * turns (buildRetrievalQuery). A follow-up ("og for praktikanter?", "hvem godkender den?") says little on its own
 * and needs the earlier topic; a new question ("Hvordan booker jeg et mødelokale?", "Hvad koster det at få et nyt
 * adgangskort?") must not be answered from it.
 *
 * One rule, decided by evidence (chooseRetrieval): a question with history is searched both ways, and the
 * combined query's best passage is used only when it holds the question's own telling words as well as the
 * question alone finds them, and it is about the earlier turn too (or the question says it continues).
 */
import { excerpt } from "./citations";
import { analysed, foldedWords, holdsText, questionEvidence, wordsText } from "./evidence";
import { selectHistory } from "./prompt";
import type { HistoryTurn, Passage } from "./types";

/** the retrieval query (question + previous user turns) */
export const QUERY_MAX_CHARS = 1_000;
/** how many previous user turns a follow-up's retrieval query adds */
export const QUERY_PREVIOUS_USER_TURNS = 2;

/** The previous user turns a follow-up is searched with, newest first. */
function previousUserTurns(question: string, history: HistoryTurn[]): string[] {
  return selectHistory(history, question)
    .filter((t) => t.role === "user")
    .slice(-QUERY_PREVIOUS_USER_TURNS)
    .map((t) => t.content)
    .reverse(); // newest first: it matters most
}

/**
 * The query with the earlier topic: the question first (never cut), then the previous user turns, newest first,
 * within QUERY_MAX_CHARS.
 */
export function buildRetrievalQuery(question: string, history: HistoryTurn[]): string {
  const q = question.trim();
  let query = q;
  for (const turn of previousUserTurns(q, history)) {
    const room = QUERY_MAX_CHARS - query.length - 1;
    if (room < 20) break;
    query += `\n${excerpt(turn, room)}`;
  }
  return query;
}

/** First words that continue the previous question ("og hvad med deltid?", "what about part-time?"). */
const CONTINUES = new Set(["og", "men", "så", "eller", "også", "and", "but", "or", "also"]);
const CONTINUES_PAIR = new Set([
  "hvad med",
  "hvad så",
  "hvad hvis",
  "hvordan med",
  "what about",
  "how about",
  "what if",
]);
/**
 * Words that may refer back to something said before ("gælder det også for deltid?", "who approves it?"). Only a
 * hint: Danish "det" is also the expletive ("Hvad koster det at …?"), English "it" the dummy subject.
 */
const REFERS_BACK = new Set([
  "det",
  "den",
  "dem",
  "de",
  "dette",
  "denne",
  "disse",
  "it",
  "that",
  "this",
  "these",
  "those",
  "them",
  "they",
]);

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A question of at most this many words is a fragment ("og for praktikanter?", "koster det noget?"). */
export const FOLLOW_UP_MAX_WORDS = 4;

/**
 * Does the question say it continues the conversation: a continuing first word ("og …", "hvad med …"), or a
 * word that refers back in a fragment (at most FOLLOW_UP_MAX_WORDS words: "hvem godkender den?"). In a longer
 * question such a word says little: "det" is Danish's expletive ("Hvad koster det at …?").
 */
export function looksLikeFollowUp(question: string): boolean {
  const words = wordsOf(question);
  if (words.length === 0) return false;
  if (CONTINUES.has(words[0]) || CONTINUES_PAIR.has(`${words[0]} ${words[1] ?? ""}`)) return true;
  return words.length <= FOLLOW_UP_MAX_WORDS && words.some((w) => REFERS_BACK.has(w));
}

/**
 * The queries to retrieve with: the question alone, and, when there are earlier user turns, the question with
 * them. A first question in a session is searched once.
 */
export function retrievalQueries(question: string, history: HistoryTurn[]): string[] {
  const alone = question.trim();
  const combined = buildRetrievalQuery(question, history);
  return combined === alone ? [alone] : [alone, combined];
}

/**
 * A passage found with the earlier turns continues their topic when it holds at least this share of their telling
 * words that the question does not have itself, counting those some candidate passage holds, each the same: a word
 * every candidate holds is the topic, and one none holds (an English word) tells nothing.
 */
export const FOLLOW_UP_EARLIER_COVERAGE = 0.25;
/**
 * … and answers the question when it holds no fewer of the question's own telling words (IDF-weighted over the
 * candidates, evidence.ts: a word no candidate holds weighs most) than the passages found with the question alone,
 * and at least this share of them, unless the question says it continues (looksLikeFollowUp: its own words are
 * often not the article's, "koster det noget?" for a fee): a question of its own is not answered from the earlier
 * topic for a word or two it shares with it ("Hvor må jeg stille min cykel?").
 */
export const FOLLOW_UP_OWN_COVERAGE = 0.5;
/** how many of each query's best relevant passages are read */
export const FOLLOW_UP_PASSAGES_READ = 3;

/** A passage's folded words with its title and headings (evidence.ts), as one text (wordsText, for holdsText). */
function wordsOfPassage(p: Passage): string {
  return analysed(p.text).allText + wordsText(foldedWords([p.title, ...p.headingPath].join(" ")));
}

/** The weighted share of the stems a passage's words hold. */
function coverage(words: string, weights: ReadonlyMap<string, number>): number {
  let total = 0;
  let covered = 0;
  for (const [stem, w] of weights) {
    total += w;
    if (holdsText(words, stem)) covered += w;
  }
  return total > 0 ? covered / total : 0;
}

/** What chooseRetrieval read, for tests and the bench. */
export interface RetrievalEvidence {
  choice: "alone" | "combined";
  /** the question's own telling words held by the best of the passages found alone */
  ownAlone: number;
  /** the passage found with the earlier turns that continues their topic and holds most of the question's words */
  ownCombined: number;
  earlierCombined: number;
  cue: boolean;
}

/**
 * Alone or combined, from the relevant passages each query found (best first). Combined when the question has no
 * telling word of its own ("og hvad så?", "hvad med et på 5.000?"), or when one of the combined query's best
 * passages continues the earlier topic (FOLLOW_UP_EARLIER_COVERAGE) and answers the question
 * (FOLLOW_UP_OWN_COVERAGE, no worse than alone). Otherwise alone, also when alone finds nothing: a question of
 * its own is declined rather than answered from the earlier topic.
 */
export function chooseRetrieval(
  question: string,
  history: HistoryTurn[],
  alone: Passage[],
  combined: Passage[],
): RetrievalEvidence {
  const cue = looksLikeFollowUp(question);
  const aloneRead = alone.slice(0, FOLLOW_UP_PASSAGES_READ);
  const combinedRead = combined.slice(0, FOLLOW_UP_PASSAGES_READ);
  const candidates = [...aloneRead, ...combinedRead];
  const own = questionEvidence(question, candidates).weights;
  const words = new Map(candidates.map((p) => [p, wordsOfPassage(p)]));
  const passageWords = (p: Passage) => words.get(p) ?? "";
  const earlier = new Map<string, number>();
  for (const stem of questionEvidence(previousUserTurns(question, history).join("\n"), []).weights.keys()) {
    if (!own.has(stem) && candidates.some((p) => holdsText(passageWords(p), stem))) earlier.set(stem, 1);
  }
  const ownAlone = Math.max(0, ...aloneRead.map((p) => coverage(passageWords(p), own)));
  let ownCombined = 0;
  let earlierCombined = 0;
  for (const p of combinedRead) {
    const e = coverage(passageWords(p), earlier);
    if (e < FOLLOW_UP_EARLIER_COVERAGE) continue;
    const o = coverage(passageWords(p), own);
    if (o >= ownCombined) [ownCombined, earlierCombined] = [o, Math.max(e, earlierCombined)];
  }
  const read = { ownAlone, ownCombined, earlierCombined, cue };
  if (combinedRead.length === 0) return { choice: "alone", ...read };
  if (own.size === 0) return { choice: "combined", ...read };
  const continues = earlierCombined >= FOLLOW_UP_EARLIER_COVERAGE;
  const answers = ownCombined >= ownAlone && (cue || ownCombined >= FOLLOW_UP_OWN_COVERAGE);
  return { choice: continues && answers ? "combined" : "alone", ...read };
}
