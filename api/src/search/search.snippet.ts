import { fold, normaliseWord } from "./search.analyzer";
import type { TextRange } from "./search.types";

export const DEFAULT_SNIPPET_LENGTH = 200;

/**
 * Between two lines when the first ends without punctuation (a heading, a list item, a label): joined by a space
 * alone, "Aktindsigt og adgang til sagens dokumenter Et medlem, der …" read as one sentence.
 */
export const LINE_SEPARATOR = " · ";
/** a line ending in one of these reads on into the next with a space */
const LINE_END_RE = /[.!?:;,…·]$/;

/**
 * Markdown body as one line of plain text: heading/bullet markers and emphasis removed, whitespace collapsed, and a
 * line that ends without punctuation set off from the next by LINE_SEPARATOR.
 */
export function toPlainText(markdown: string): string {
  const lines = markdown
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^#{1,6}\s+/, "")
        .replace(/^[-*•]\s+/, "")
        .replace(/\*\*|__|`/g, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter(Boolean);
  let out = "";
  for (const line of lines) {
    if (out) out += LINE_END_RE.test(out) ? " " : LINE_SEPARATOR;
    out += line;
  }
  return out;
}

const WORD_RE = /[\p{L}\p{N}]+/gu;
const WORD_CHAR_RE = /[\p{L}\p{N}]/u;

/** The first letter of a word as its index term starts (lowercase, folded). */
function foldedInitial(word: string): string {
  const c = word[0].toLowerCase();
  if (c >= "a" && c <= "z") return c;
  return fold(c).charAt(0);
}

type Match = { start: number; end: number; term: string };

/**
 * A text's words with their index terms, worked out once: building a snippet from it is a pass of set
 * lookups, not of regex, lowercasing and stemming (the search shows the same articles again and again).
 */
export interface SnippetSource {
  plain: string;
  starts: Int32Array;
  ends: Int32Array;
  /** index term of each word ('' for a stop word) */
  terms: string[];
  /** foldedInitial() of each word, as a char code */
  initials: Uint16Array;
}

/** Analyse `plain` (see toPlainText) for buildSnippet(). */
export function snippetSource(plain: string): SnippetSource {
  const starts: number[] = [];
  const ends: number[] = [];
  const terms: string[] = [];
  const initials: number[] = [];
  for (const m of plain.matchAll(WORD_RE)) {
    const word = m[0];
    const start = m.index ?? 0;
    starts.push(start);
    ends.push(start + word.length);
    terms.push(normaliseWord(word));
    initials.push(foldedInitial(word).charCodeAt(0));
  }
  return {
    plain,
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
    terms,
    initials: Uint16Array.from(initials),
  };
}

/** Words of `text` whose index term is in `terms`, with positions (cheap first-letter filter first). */
function matchedWords(text: string | SnippetSource, terms: ReadonlySet<string>): Match[] {
  const out: Match[] = [];
  if (terms.size === 0) return out;
  if (typeof text !== "string") {
    const initials = new Set<number>();
    for (const t of terms) initials.add(t.charCodeAt(0));
    for (let i = 0; i < text.terms.length; i++) {
      if (!initials.has(text.initials[i])) continue;
      const term = text.terms[i];
      if (term && terms.has(term)) out.push({ start: text.starts[i], end: text.ends[i], term });
    }
    return out;
  }
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
 * distinct matched terms, with '…' where cut, and the matched words' ranges inside it. `text` is the plain
 * text, or its snippetSource() (the same result, faster when one text is shown often).
 */
export function buildSnippet(
  text: string | SnippetSource,
  terms: ReadonlySet<string>,
  maxLength = DEFAULT_SNIPPET_LENGTH,
): { snippet: string; highlights: TextRange[] } {
  const plain = typeof text === "string" ? text : text.plain;
  const matched = matchedWords(text, terms);

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
    while (to > from && /[\s·]/.test(plain[to - 1])) to--;
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

/**
 * Articles whose analysed plain text (for snippets) is kept. Working it out is most of a search's cost, and a
 * search shows the same popular articles again and again; a few kB each.
 */
export const SNIPPET_SOURCES_KEPT = 1_000;

/**
 * The snippet sources of the articles shown most recently (at most `kept`; the least recently used goes first).
 * An entry is for one version of an article: `owner` is the object the caller keeps for that version, so an
 * edited article (a new object) gets a fresh source, while the old one is simply never asked for again.
 */
export class SnippetSourceCache {
  /** article id → its source, most recently used last */
  private readonly entries = new Map<string, { owner: object; source: SnippetSource }>();

  constructor(private readonly kept = SNIPPET_SOURCES_KEPT) {}

  get size(): number {
    return this.entries.size;
  }

  /** The snippet source of `markdown`, the body of article `id` as `owner` holds it: cached or worked out now. */
  sourceOf(id: string, owner: object, markdown: string): SnippetSource {
    const cached = this.entries.get(id);
    this.entries.delete(id);
    const source = cached?.owner === owner ? cached.source : snippetSource(toPlainText(markdown));
    this.entries.set(id, { owner, source });
    if (this.entries.size > this.kept) this.entries.delete(this.entries.keys().next().value as string);
    return source;
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }
}
