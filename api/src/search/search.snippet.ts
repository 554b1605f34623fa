import { fold, normaliseWord } from "./search.analyzer";
import type { TextRange } from "./search.types";

export const DEFAULT_SNIPPET_LENGTH = 200;

/** Markdown body as one line of plain text: heading/bullet markers and emphasis removed, whitespace collapsed. */
export function toPlainText(markdown: string): string {
  return markdown
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^#{1,6}\s+/, "")
        .replace(/^[-*•]\s+/, "")
        .replace(/\*\*|__|`/g, ""),
    )
    .filter(Boolean)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

const WORD_RE = /[\p{L}\p{N}]+/gu;
const WORD_CHAR_RE = /[\p{L}\p{N}]/u;

/** The first letter of a word as its index term starts (lowercase, folded). */
function foldedInitial(word: string): string {
  const c = word[0].toLowerCase();
  if (c >= "a" && c <= "z") return c;
  return fold(c).charAt(0);
}

/** Words of `text` whose index term is in `terms`, with positions (cheap first-letter filter first). */
function matchedWords(
  text: string,
  terms: ReadonlySet<string>,
): { start: number; end: number; term: string }[] {
  const out: { start: number; end: number; term: string }[] = [];
  if (terms.size === 0) return out;
  const initials = new Set<string>();
  for (const t of terms) initials.add(t.charAt(0));
  for (const m of text.matchAll(WORD_RE)) {
    const word = m[0];
    if (!initials.has(foldedInitial(word))) continue;
    const term = normaliseWord(word);
    if (term && terms.has(term)) {
      const start = m.index ?? 0;
      out.push({ start, end: start + word.length, term });
    }
  }
  return out;
}

/** Ranges of the words in `text` whose index term is one of `terms`. */
export function matchRanges(text: string, terms: ReadonlySet<string>): TextRange[] {
  return matchedWords(text, terms).map(({ start, end }) => ({ start, end }));
}

/**
 * The window of `plain` (at most maxLength characters, cut at word boundaries) holding the most
 * distinct matched terms, with '…' where cut, and the matched words' ranges inside it.
 */
export function buildSnippet(
  plain: string,
  terms: ReadonlySet<string>,
  maxLength = DEFAULT_SNIPPET_LENGTH,
): { snippet: string; highlights: TextRange[] } {
  const matched = matchedWords(plain, terms);

  let from = 0;
  if (matched.length > 0 && plain.length > maxLength) {
    // Slide over the matches: pick the window (starting a little before a match) with the most
    // distinct terms, then the most matches.
    let best = { from: 0, distinct: -1, count: -1 };
    for (let i = 0; i < matched.length; i++) {
      const start = Math.max(0, matched[i].start - 40);
      const limit = start + maxLength;
      const seen = new Set<string>();
      let count = 0;
      for (let j = i; j < matched.length && matched[j].end <= limit; j++) {
        seen.add(matched[j].term);
        count++;
      }
      if (seen.size > best.distinct || (seen.size === best.distinct && count > best.count)) {
        best = { from: start, distinct: seen.size, count };
      }
      if (count === matched.length - i) break; // later windows can only hold fewer matches
    }
    from = best.from;
  }
  // Snap to word boundaries: start at a word's first letter, end after a word's last letter.
  if (from > 0 && WORD_CHAR_RE.test(plain[from - 1] ?? "")) {
    while (from < plain.length && WORD_CHAR_RE.test(plain[from])) from++;
  }
  while (from < plain.length && !WORD_CHAR_RE.test(plain[from])) from++;
  let to = Math.min(plain.length, from + maxLength);
  if (to < plain.length) {
    if (WORD_CHAR_RE.test(plain[to])) {
      while (to > from && WORD_CHAR_RE.test(plain[to - 1])) to--;
    }
    while (to > from && /\s/.test(plain[to - 1])) to--;
  }
  if (from >= to) {
    from = 0;
    to = Math.min(plain.length, maxLength);
  }
  const prefix = from > 0 ? "…" : "";
  const suffix = to < plain.length ? "…" : "";
  const body = plain.slice(from, to);
  const shift = prefix.length - from;
  const highlights = matched
    .filter((m) => m.start >= from && m.end <= to)
    .map((m) => ({ start: m.start + shift, end: m.end + shift }));
  return { snippet: `${prefix}${body}${suffix}`, highlights };
}
