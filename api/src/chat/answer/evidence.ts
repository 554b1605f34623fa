/**
 * Sentence-level evidence: how well the best sentence of a passage answers the question. The retrieval's relevance
 * says whether a passage is about the question (and saturates near 1 for every good one); the sentence that
 * answers is the one holding most of the question's telling words, read together with its section's headings.
 *
 * Words are compared folded (æ/ø/å as ae/oe/aa, so a question typed without them still matches) on their first
 * STEM_LENGTH letters (a crude stem that survives Danish inflection: frist/fristen/fristerne), and a question word
 * also matches inside a longer word (a compound: `frist` in `klagefristen`). A word weighs by how few of the
 * candidate passages hold it (an IDF over the candidates), so a word every candidate shares tells nothing.
 */
import { stemmer as danishStemmer } from "@orama/stemmers/danish";
import { plainText } from "../../markdown/sanitize";
import { fold } from "../../search/search.analyzer";
import { keepResults } from "../../util";

/** question words shorter than this are not compared (og, er, jeg, ...) */
export const MIN_WORD_LENGTH = 4;
/** letters a word is compared on */
export const STEM_LENGTH = 5;
/**
 * A word is compared on no more letters than its Danish (Snowball) stem has: an inflection ending is no part of
 * what the word shares with its other forms (`svaret` is compared as `svar`, not `svare`, so it matches "svar";
 * `meldte` as `meld`, matching "indmeldelsen"; `nummer` as `num`, matching "personnumre"; `slette` as `slet`,
 * matching "sletning"), but on at least this many.
 */
export const MIN_STEM_LENGTH = 3;

/**
 * A sentence stating the kind of fact the question asks for (a time, an amount) counts this share of an average
 * question word: a hint, since most sentences of deadline and payment rules state some time or amount.
 */
export const ANSWER_KIND_SHARE = 0.5;

/** words stemmed and kept (stemOf is pure; the same question words recur): the least recently stemmed goes first */
export const STEMS_KEPT = 10_000;
// stemNow is a function declaration: the word lists below stem their words while this module loads
const keptStems = keepResults((word: string) => stemNow(word), STEMS_KEPT);

/** Question words that say what is asked, not what it is about (they weigh nothing). */
const ASKING = new Set(
  [
    ...[
      "hvad",
      "hvem",
      "hvor",
      "hvornår",
      "hvordan",
      "hvilke",
      "hvilken",
      "hvorfor",
      "hvis",
      "skal",
      "eller",
    ],
    ...[
      "ikke",
      "også",
      "efter",
      "være",
      "have",
      "blive",
      "bliver",
      "gøre",
      "gerne",
      "dette",
      "denne",
      "deres",
    ],
    ...["mine", "sådan", "egentlig", "noget", "nogen", "andre", "under", "over", "inden", "mens"],
  ].map(stemOf),
);

/**
 * A word folded and cut to its stem: at most STEM_LENGTH letters, never the whole word (søge/søg, klage/klag), and
 * no longer than its Snowball stem (MIN_STEM_LENGTH).
 */
export function stemOf(word: string): string {
  return keptStems(word);
}

function stemNow(word: string): string {
  const snowball = fold(danishStemmer(word.toLowerCase())).length;
  return fold(word).slice(0, Math.min(STEM_LENGTH, word.length - 1, Math.max(MIN_STEM_LENGTH, snowball)));
}

/** How many stems are kept (tests). */
export const keptStemCount = (): number => keptStems.kept();

const WORDS = /[\p{L}\p{N}]+/gu;

/** The folded words of a text (whole, not cut: a question stem may match inside one). */
export function foldedWords(text: string): string[] {
  return (text.match(WORDS) ?? []).map(fold);
}

/** A passage read once: its plain text, sentences and their folded words (the same passages recur). */
export interface AnalysedText {
  plain: string;
  sentences: string[];
  words: string[][];
  all: string[];
  /** `all` as one text (wordsText), for holdsText */
  allText: string;
}

/** passage texts analysed and kept (a few kB each; the least recently analysed goes first) */
export const ANALYSED_KEPT = 1_000;

/** The analysis of a passage's Markdown text (kept for the next question that retrieves it). */
export const analysed = keepResults((text: string): AnalysedText => {
  const plain = plainText(text).trim();
  const parts = sentences(plain);
  const words = parts.map(foldedWords);
  const all = words.flat();
  return { plain, sentences: parts, words, all, allText: wordsText(all) };
}, ANALYSED_KEPT);

/**
 * A question that asks when, how long or how soon ("hvornår", "hvor længe", "hvor lang tid", "frist", "deadline")
 * is answered by a sentence that states a time: a number with a unit of time, a date, or "straks/senest".
 */
const ASKS_TIME =
  /\b(hvorn(?:å|aa|a)r|hvor\s+(?:l(?:æ|ae|a)nge|lang\s+tid|hurtigt|tidligt|sent|ofte|mange\s+(?:dage|uger|måneder|maaneder|år|aar|timer))|frist\w*|deadline\w*|\w+frist\w*|tidsfrist\w*)\b/iu;
/**
 * Danish numbers written as words (but "en"/"et", also the indefinite article): the texts write small numbers as
 * words as often as in digits, and "fire uger" states a time, "tre medlemmer" an amount, as much as "4 uger" does.
 */
const NUMBER_WORD =
  "to|tre|fire|fem|seks|syv|otte|ni|ti|elleve|tolv|fjorten|femten|tyve|tredive|hundrede|tusind";
/** a count of time units in words ("to uger", "et par dage"): a number word, also "en"/"et", "halvanden", "par" */
const TIME_COUNT_WORD = `en|et|halvanden|par|${NUMBER_WORD}`;
const STATES_TIME = new RegExp(
  `((?:\\d+|\\b(?:${TIME_COUNT_WORD}))\\s*(?:\\(\\s*\\d+\\s*\\w+\\s*\\)\\s*)?(?:arbejds|hverdag|kalender)?(?:dag|uge|måned|maaned|år|aar|time|timer|minut|kvartal)\\w*|\\b(?:straks|senest|inden|hver\\s+(?:måned|uge|år|dag)|januar|februar|marts|april|maj|juni|juli|august|september|oktober|november|december|\\d{1,2}\\.\\s*\\d{1,2}\\.)\\b)`,
  "iu",
);
/**
 * A question that asks how much or how many ("hvor meget", "hvor mange", "beløb", "grænse", "koster") is answered
 * by a sentence that states an amount: a number, in digits or in words (AMOUNT_WORD).
 */
const ASKS_AMOUNT =
  /\b(hvor\s+(?:meget|mange|stor|høj|hoej)|beløb\w*|beloeb\w*|\w*grænse\w*|\w*graense\w*|koste\w*|pris\w*)\b/iu;
/**
 * An amount written in words: a number but "en"/"et" (also the indefinite article), or a fraction ("mere end
 * halvdelen", "to tredjedele"), as much an amount as one in digits.
 */
const AMOUNT_WORD = `${NUMBER_WORD}|halvdel\\w*|tredjedel\\w*|fjerdedel\\w*`;
const STATES_AMOUNT = new RegExp(`\\d|\\b(?:${AMOUNT_WORD})\\b`, "iu");

/** The question's telling stems, each with its weight over the candidate passages, and what kind of fact it asks. */
export interface QuestionEvidence {
  /** by stem, or by a concept's stems joined with "|" (any of them counts: ASKS_CONTENT) */
  weights: Map<string, number>;
  total: number;
  /** the sentence that answers states a time (ASKS_TIME) or an amount (ASKS_AMOUNT); weighs `answerWeight` */
  answer?: RegExp;
  answerWeight: number;
  /** a time question's weight for a section headed by a deadline (DEADLINE_HEADING), 0 for other questions */
  headingWeight: number;
}

export const holds = (words: readonly string[], stem: string): boolean =>
  stem.includes("|") ? stem.split("|").some((x) => holds(words, x)) : words.some((w) => w.includes(stem));

/**
 * Words as one text, each after a line break (no word holds one): a stem is inside one of the words exactly when it
 * is inside the text, so holdsText asks a passage read for many stems with one substring search each.
 */
export const wordsText = (words: readonly string[]): string =>
  words.length > 0 ? `\n${words.join("\n")}` : "";

/** holds() over wordsText(words): the same answer for any non-empty stem (a stem is letters and digits). */
export const holdsText = (text: string, stem: string): boolean =>
  stem.includes("|")
    ? stem.split("|").some((x) => holdsText(text, x))
    : text.length > 0 && text.includes(stem);

/**
 * A question that asks what something holds ("hvad skal med i brevet?", "hvilke oplysninger skal med i svaret?",
 * "hvad står der i referatet?", "hvad skal en klage indeholde?") is answered by the section naming its content
 * ("Afgørelsens indhold", "Hvad skal svaret indeholde?"), whose list items rarely repeat the question's words: the
 * concept "content" (CONTENT_STEMS, either form) counts as one telling word of the question.
 */
const ASKS_CONTENT = /\b(?:hvad|hvilke\w*)\b[^?]*\b(?:med\s+i|indeholde|st(?:å|aa|a)r?\s+i)\b/iu;
const CONTENT_STEMS = ["indhold", "indeholde"].map(stemOf).join("|");

/**
 * A question that asks when or how long (ASKS_TIME) is answered by the section whose own heading names a deadline
 * ("Frist", "Slettefrister", "Klagefristen"): of two sections whose sentences hold the same words and state a time,
 * the one headed by a deadline states the one asked for, the other a time of something else ("Udbetaling",
 * "Anmodning om sletning"). Such a heading counts as one more telling word of the question (the average weight),
 * unless the question names the deadline itself (then its own word does). The quote choice reads it for the best
 * passage's article only (quotes.ts quoteEvidence, through passageEvidence's `readDeadlineHeading`): for every
 * candidate it let another article's deadline section ("Oversigt over frister") in beside the answer as padding.
 */
const DEADLINE_HEADING = /frist|tidsplan/u;

/**
 * The phrase that asks for a time or an amount ("hvor længe", "hvor lang tid", "hvor mange", "hvor meget") says
 * what kind of fact answers (ASKS_TIME, ASKS_AMOUNT), not what the question is about: its words are no telling
 * stems (cut to a stem, `længe` matched `længere`, `mange` matched `mangler`, in sentences about something else).
 */
const ASKING_PHRASE =
  /\bhvor\s+(?:l(?:æ|ae|a)nge|lang\s+tid|hurtigt|tidligt|sent|ofte|mange|meget|stor|høj|hoej)\b/giu;

/** The question's stems (but the asking phrase's) weighted by how few of `passages` (the candidates) hold them. */
export function questionEvidence(question: string, passages: readonly { text: string }[]): QuestionEvidence {
  const telling = question.replace(ASKING_PHRASE, " ");
  const stems = new Set(
    (telling.match(WORDS) ?? [])
      .filter((w) => w.length >= MIN_WORD_LENGTH)
      .map(stemOf)
      .filter((s) => !ASKING.has(s)),
  );
  if (ASKS_CONTENT.test(question)) {
    for (const form of CONTENT_STEMS.split("|")) stems.delete(form);
    stems.add(CONTENT_STEMS);
  }
  const texts = passages.map((p) => analysed(p.text).allText);
  const weights = new Map<string, number>();
  let total = 0;
  for (const s of stems) {
    const df = texts.filter((text) => holdsText(text, s)).length;
    const w = Math.log(1 + (texts.length + 1) / (df + 1));
    weights.set(s, w);
    total += w;
  }
  const answer = ASKS_TIME.test(question)
    ? STATES_TIME
    : ASKS_AMOUNT.test(question)
      ? STATES_AMOUNT
      : undefined;
  // the kind of fact asked for counts as part of one more telling word (ANSWER_KIND_SHARE of the average weight)
  const average = weights.size > 0 ? total / weights.size : 1;
  const answerWeight = answer ? ANSWER_KIND_SHARE * average : 0;
  const namesDeadline = [...weights.keys()].some((s) => DEADLINE_HEADING.test(s));
  const headingWeight = answer === STATES_TIME && !namesDeadline ? average : 0;
  return {
    weights,
    total: total + answerWeight + headingWeight,
    ...(answer ? { answer } : {}),
    answerWeight,
    headingWeight,
  };
}

/** The share of the question's weight one sentence covers (the kind of fact asked for counting as a word). */
export function sentenceEvidence(
  sentence: string,
  ev: QuestionEvidence,
  words = foldedWords(sentence),
  headedByDeadline = false,
): number {
  if (ev.total <= 0) return 0;
  let covered = ev.answer?.test(sentence) ? ev.answerWeight : 0;
  if (headedByDeadline) covered += ev.headingWeight;
  for (const [s, w] of ev.weights) if (holds(words, s)) covered += w;
  return covered / ev.total;
}

/**
 * Sentences of a plain text, each with its own ending (a line break ends a sentence too: list items). A full stop
 * followed by a lower-case word ends none: an abbreviation or an ordinal ("500 kr. og", "jf. loven", "1. rykker").
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[^\n]*?(?:[.!?…:](?=\s*$|[^\S\n]*\n|\s+[^\s\p{Ll}])|\n|$)/gu)) {
    if (m[0].trim()) out.push(m[0]);
    else if (out.length > 0) out[out.length - 1] += m[0]; // the line break after a sentence stays with it
    if (m.index !== undefined && m.index >= text.length) break;
  }
  return out;
}

/**
 * How well the best sentence of a passage answers the question (0..1). Each sentence is read together with its
 * section's own heading (the last of `headingPath`): a list item or a short rule rarely repeats what its heading
 * names ("Gebyr", "Når en frist ikke kan holdes"), and of two sections whose sentences hold the same words, the one
 * whose heading names the asked thing answers it.
 */
export function passageEvidence(
  p: { text: string; headingPath?: readonly string[] },
  ev: QuestionEvidence,
  // whether a heading naming a deadline counts for a time question (DEADLINE_HEADING)
  readDeadlineHeading = true,
): number {
  const a = analysed(p.text);
  const heading = p.headingPath?.length ? foldedWords(p.headingPath[p.headingPath.length - 1]) : [];
  const headedByDeadline =
    readDeadlineHeading && ev.headingWeight > 0 && heading.some((w) => DEADLINE_HEADING.test(w));
  let best = 0;
  for (let i = 0; i < a.sentences.length; i++) {
    const words = heading.length > 0 ? [...a.words[i], ...heading] : a.words[i];
    best = Math.max(best, sentenceEvidence(a.sentences[i], ev, words, headedByDeadline));
  }
  return best;
}
