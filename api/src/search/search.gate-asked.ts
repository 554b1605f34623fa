/**
 * The kind of thing a question asks for, for the relevance gate: the word after an interrogative determiner
 * ("Hvilken *dato* …", "hvilke *systemer* …", "hvad for et *skema* …") names what the answer is (a date, systems, a
 * form). A passage that holds no trace of that word (not itself, an inflection, a compound, a lexicon or thesaurus
 * term of it, nor in its headings) may share the question's other words, but it does not state a thing of that kind:
 * "Hvilken dato er grundlovsdag?" against a list of holidays that names grundlovsdag but no date. An adjective before
 * the noun is passed over ("hvilke personlige oplysninger": oplysninger). Only determiners:
 * after "hvor mange" the answer is a number and the counted noun is often not repeated ("Hvor mange personer sidder i
 * bestyrelsen?" → "Bestyrelsen har 7 medlemmer").
 */
import { isStopword, wordSpans } from "./search.analyzer";
import { wordClasses } from "./search.danish";

/** Interrogative determiners (closed word class); "hvad for en/et/nogle" asks the same. */
const DETERMINERS: ReadonlySet<string> = new Set(["hvilken", "hvilket", "hvilke"]);
const HVAD_FOR: ReadonlySet<string> = new Set(["en", "et", "nogle"]);
/** Nouns that only say "a kind of" ("hvilken slags kursus"): the asked kind is the word after them. */
const KIND_WORDS: ReadonlySet<string> = new Set(["slags", "type", "typer", "form", "former", "art", "arter"]);

/** A word the Danish dictionary knows as an adjective and not as a noun ('nye', 'personlige'). */
function onlyAdjective(word: string): boolean {
  const classes = wordClasses(word);
  return classes.has("adjective") && !classes.has("noun");
}

/** The word naming the kind of thing asked for (lowercase, as written), or null when the question asks none. */
export function askedWord(text: string): string | null {
  const words = wordSpans(text).map((w) => w.word.toLowerCase());
  for (let i = 0; i < words.length; i++) {
    let j = -1;
    if (DETERMINERS.has(words[i])) j = i + 1;
    else if (words[i] === "hvad" && words[i + 1] === "for" && HVAD_FOR.has(words[i + 2] ?? "")) j = i + 3;
    if (j < 0) continue;
    while (j < words.length && (isStopword(words[j]) || KIND_WORDS.has(words[j]))) j++;
    // an adjective before the noun ("hvilke personlige oplysninger"): the noun names the kind
    while (j + 1 < words.length && onlyAdjective(words[j])) j++;
    return j < words.length ? words[j] : null;
  }
  return null;
}

/**
 * Which of the question's concepts stand for the asked word: the concept of that word, or, for a compound the
 * index lacks (read as its parts: 'pensionsordning' → 'pension', 'ordning'), the concepts of its parts.
 */
export function askedConcepts(text: string, words: readonly string[]): Set<number> {
  const asked = askedWord(text);
  const out = new Set<number>();
  if (!asked) return out;
  words.forEach((w, i) => {
    if (w.toLowerCase() === asked) out.add(i);
  });
  if (out.size > 0) return out;
  words.forEach((w, i) => {
    const part = w.toLowerCase();
    if (part.length >= 3 && part !== asked && asked.includes(part)) out.add(i);
  });
  return out;
}
