/**
 * The asked clause of a long question: staff describe a situation before they ask ("Et medlem har ringet tre gange
 * i denne uge og vil have … – må jeg rykke dem frem i køen?"), and the situation's words are about the case, not
 * about what the articles must answer. Danish marks the asked part by its word order: a question clause opens with
 * an interrogative (hv-word, "om") or with its finite verb (V1: "må jeg", "skal vi", "er det"), a statement with
 * its subject ("jeg sidder", "et medlem har"). The clause holding the question mark is asked; before it the
 * situation is set off by a dash, a sentence end, or a comma before a clause that opens as a question ("…, men må
 * sådan en gruppe selv træffe beslutninger?", "… vil gerne vide, hvad der skal fjernes?").
 */

/** A question shorter than this many words has no situation to set apart (it is all asked). */
export const LONG_QUESTION_WORDS = 14;

/** Words that open a question clause: interrogatives, "om" (an indirect yes/no question), finite modals/auxiliaries. */
const QUESTION_OPENERS = new Set([
  "hvad",
  "hvem",
  "hvor",
  "hvornår",
  "hvornaar",
  "hvordan",
  "hvilken",
  "hvilket",
  "hvilke",
  "hvorfor",
  "hvorhen",
  "om",
  "må",
  "maa",
  "skal",
  "kan",
  "bør",
  "boer",
  "vil",
  "er",
  "har",
  "bliver",
  "får",
  "faar",
  "gør",
  "goer",
  "skulle",
  "kunne",
  "ville",
  "burde",
  "måtte",
  "maatte",
  "gælder",
  "gaelder",
  "tæller",
  "taeller",
  "regnes",
  "betyder",
]);
/** Conjunctions that may stand before a question clause's opener ("men må …", "og hvor hurtigt"). */
const LEADING_CONJUNCTIONS = new Set(["men", "og", "så", "saa", "eller"]);

const WORD = /[\p{L}\p{N}]+/gu;
/** a dash between clauses, or a sentence end inside the question */
const CLAUSE_BREAK = /\s[–—-]\s|[.!?:;](?=\s)/gu;

export interface AskedClause {
  /** the part that asks (from the asked clause to the end of the question) */
  asked: string;
  /** the situation before it */
  situation: string;
}

function opensQuestion(clause: string): boolean {
  const words = (clause.toLowerCase().match(WORD) ?? []).slice(0, 2);
  const first = LEADING_CONJUNCTIONS.has(words[0] ?? "") ? words[1] : words[0];
  return first !== undefined && QUESTION_OPENERS.has(first);
}

/**
 * The asked clause of a long question (at least LONG_QUESTION_WORDS words) and the situation before it; undefined
 * when the question is short or its asked part is not set apart (a question that opens by asking is asked whole).
 * The last part after a dash or a sentence end is asked; when it is one part with the situation, the first comma
 * clause that opens as a question starts the asked part.
 */
export function askedClause(question: string): AskedClause | undefined {
  const text = question.trim();
  if ((text.match(WORD) ?? []).length < LONG_QUESTION_WORDS) return undefined;
  if (opensQuestion(text)) return undefined;
  let start = 0;
  for (const m of text.matchAll(CLAUSE_BREAK)) {
    const end = (m.index ?? 0) + m[0].length;
    if (end < text.length && /[\p{L}\p{N}]/u.test(text.slice(end))) start = end;
  }
  let last = text.slice(start);
  if (!opensQuestion(last)) {
    let offset = 0;
    const clauses = last.split(",");
    let found = -1;
    for (let i = 1; i < clauses.length; i++) {
      offset += clauses[i - 1].length + 1;
      if (opensQuestion(clauses[i])) {
        found = offset;
        break;
      }
    }
    if (found < 0)
      return start > 0 ? { asked: last.trim(), situation: text.slice(0, start).trim() } : undefined;
    start += found;
    last = text.slice(start);
  }
  const situation = text.slice(0, start).trim();
  return situation ? { asked: last.trim(), situation } : undefined;
}

/**
 * Words that open an indirect question inside the situation ("… spørger, om det kan komme til afstemning", "…
 * vil gerne vide, hvad der skal med"): what the asker was asked, the question passed on. "hvor" is left out: after
 * a comma it mostly opens a relative clause of place or time ("en oversigt over forbruget, hvor der er …").
 */
const INDIRECT_OPENERS = new Set([
  "om",
  "hvad",
  "hvem",
  "hvornår",
  "hvornaar",
  "hvordan",
  "hvilken",
  "hvilket",
  "hvilke",
]);

/**
 * The asked text of a long question: the indirect questions of its situation and its asked clause (askedClause);
 * undefined when the question has no situation set apart.
 */
export function askedText(question: string): string | undefined {
  const clause = askedClause(question);
  if (!clause) return undefined;
  const indirect = clause.situation.split(/,|\s[–—-]\s/u).filter((c) => {
    const words = c.toLowerCase().match(WORD) ?? [];
    return words.length > 1 && INDIRECT_OPENERS.has(words[0] ?? "");
  });
  return [...indirect, clause.asked].join(", ");
}
