/**
 * Citation markers in answers: `[1]`, `[1, 3]`, `[1][3]`, `[2-4]`. Numbers that match a given source stay;
 * others are removed from the text (with the spaces before them), so every marker the user sees links to a
 * real passage. Works on a stream: a `[` that may still become a marker is held back until it is decided, so a
 * half marker that later turns out invalid is never emitted. `\[` (escaped, e.g. in quoted passages) is text.
 */
import { plainText } from "../../markdown/sanitize";
import type { Citation, NumberedSource } from "./types";

/** longest marker we wait for, e.g. "[12, 13, 14, 15]" */
const MAX_MARKER_LENGTH = 40;
/** a range like [1-400] is not a citation list we expand */
const MAX_RANGE = 20;
const PASSAGE_EXCERPT_LENGTH = 600;

const ITEM = String.raw`\d{1,3}(?:\s*[-–]\s*\d{1,3})?`;
const COMPLETE_MARKER = new RegExp(String.raw`^\[\s*${ITEM}(?:\s*[,;]\s*${ITEM})*\s*\]`);
const MARKER_PREFIX = /^\[\s*(?:\d{1,3}(?:\s*[-–,;]\s*(?:\d{1,3})?)*\s*)?$/;

/** The numbers a marker body names, in order, ranges expanded ("1, 3-4" → [1, 3, 4]). */
function markerNumbers(marker: string): number[] {
  const out: number[] = [];
  for (const item of marker.slice(1, -1).split(/[,;]/)) {
    const [a, b] = item.split(/[-–]/).map((x) => Number.parseInt(x.trim(), 10));
    if (b === undefined || Number.isNaN(b)) out.push(a);
    else if (b >= a && b - a < MAX_RANGE) for (let n = a; n <= b; n++) out.push(n);
  }
  return out;
}

type MarkerDecision =
  | { kind: "text" }
  | { kind: "wait" }
  | { kind: "marker"; length: number; numbers: number[] };

function decideMarker(rest: string): MarkerDecision {
  const m = COMPLETE_MARKER.exec(rest);
  if (m) return { kind: "marker", length: m[0].length, numbers: markerNumbers(m[0]) };
  if (rest.length < MAX_MARKER_LENGTH && MARKER_PREFIX.test(rest)) return { kind: "wait" };
  return { kind: "text" };
}

/**
 * Streaming citation filter. push() returns the text safe to emit now; end() flushes the rest. Valid markers are
 * normalised to `[1]` / `[1, 3]`; markers with no valid number vanish together with the spaces before them.
 */
export class CitationFilter {
  private pending = "";
  /** spaces/tabs seen but not yet emitted: dropped if a removed marker and punctuation follow */
  private heldSpace = "";
  /** the last thing seen was a removed marker */
  private afterDrop = false;
  /** inside `code` or a ``` block (backtick parity): brackets there are code, not citations */
  private inCode = false;

  constructor(private readonly validNumbers: ReadonlySet<number>) {}

  push(chunk: string): string {
    const input = this.pending + chunk;
    this.pending = "";
    let out = "";
    let i = 0;
    while (i < input.length) {
      const ch = input[i];
      if (ch === "`" || this.inCode) {
        if (ch === "`") this.inCode = !this.inCode;
        out += this.heldSpace + ch;
        this.heldSpace = "";
        this.afterDrop = false;
        i++;
      } else if (ch === " " || ch === "\t") {
        // after a removed marker, "a [9] b" must not become "a  b"
        if (!(this.afterDrop && this.heldSpace)) this.heldSpace += ch;
        i++;
      } else if (ch === "\\") {
        if (i + 1 >= input.length) {
          this.pending = "\\";
          break;
        }
        out += this.heldSpace + input.slice(i, i + 2);
        this.heldSpace = "";
        this.afterDrop = false;
        i += 2;
      } else if (ch === "[") {
        const d = decideMarker(input.slice(i));
        if (d.kind === "wait") {
          this.pending = input.slice(i);
          break;
        }
        if (d.kind === "text") {
          out += `${this.heldSpace}[`;
          this.heldSpace = "";
          this.afterDrop = false;
          i++;
          continue;
        }
        const kept = [...new Set(d.numbers.filter((n) => this.validNumbers.has(n)))];
        if (kept.length > 0) {
          out += `${this.heldSpace}[${kept.join(", ")}]`;
          this.heldSpace = "";
          this.afterDrop = false;
        } else {
          // keep the space for now: "løn [0][2]" → "løn [2]", but "optjenes [7]." → "optjenes."
          this.afterDrop = true;
        }
        i += d.length;
      } else {
        if (this.afterDrop && /[.,;:!?)\n]/.test(ch)) this.heldSpace = "";
        out += this.heldSpace + ch;
        this.heldSpace = "";
        this.afterDrop = false;
        i++;
      }
    }
    return out;
  }

  /** End of input: an unfinished marker ("[2, ") is dropped, trailing spaces too. */
  end(): string {
    const rest = this.pending;
    this.pending = "";
    this.heldSpace = "";
    this.afterDrop = false;
    return MARKER_PREFIX.test(rest) ? "" : rest;
  }
}

/** Clean a whole text (same rules as the stream). */
export function cleanCitations(text: string, validNumbers: ReadonlySet<number>): string {
  const f = new CitationFilter(validNumbers);
  return f.push(text) + f.end();
}

/** The numbers cited in a text, in order of first use (escaped `\[` and code are skipped). */
export function extractCitationNumbers(text: string): number[] {
  const seen = new Set<number>();
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "`") inCode = !inCode;
    if (inCode) continue;
    if (text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] !== "[") continue;
    const d = decideMarker(text.slice(i, i + MAX_MARKER_LENGTH));
    if (d.kind !== "marker") continue;
    for (const n of d.numbers) seen.add(n);
    i += d.length - 1;
  }
  return [...seen];
}

/** Shorten at a word boundary. */
export function excerpt(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Shorten at the last sentence end within `max` (a word boundary when the first sentence is longer). */
export function sentenceExcerpt(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max + 1);
  let end = -1;
  for (const m of cut.matchAll(/[.!?…:](?=\s)|\n/g))
    if (m.index !== undefined && m.index < max) end = m.index;
  return end > 0 ? t.slice(0, end + 1).trim() : excerpt(t, max);
}

/**
 * Map used numbers to citations (numbers without a source are skipped), keeping the order of first use. A
 * citation is stored with the answer and shown to its reader, so its text from the knowledge base is plain text
 * without HTML (whatever an article held when it was saved).
 */
export function buildCitations(usedNumbers: number[], sources: NumberedSource[]): Citation[] {
  const byNumber = new Map(sources.map((s) => [s.number, s]));
  const out: Citation[] = [];
  for (const n of usedNumbers) {
    const s = byNumber.get(n);
    if (!s) continue;
    out.push({
      number: n,
      articleId: s.articleId,
      title: plainText(s.title),
      headingPath: s.headingPath.map(plainText),
      ...(s.url ? { url: s.url } : {}),
      // exactly what the answer quoted; else the passage's first sentences
      passage: s.quote ?? sentenceExcerpt(plainText(s.text), PASSAGE_EXCERPT_LENGTH),
      ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}),
    });
  }
  return out;
}
