/**
 * Text we store to show to others (model answers, quoted article text, imported articles, titles) must not carry
 * HTML: the web renders Markdown without HTML, but REST clients and exports read the stored text too. Two steps:
 *
 * 1. Parse, don't match: each line is parsed as Markdown (micromark, the parser under remark) and the raw HTML
 *    it finds is dropped (`<br>` becomes a space); the text between tags stays. What Markdown does not read as
 *    HTML stays too, as text: `a < b`, code, an unfinished `<img src=x`. Autolinks `<https://…>` become ordinary
 *    links (http, https, mailto and e-mail only; anything else stays as text). A removed tag between two
 *    punctuation characters leaves TAG_BREAK behind, so its neighbours cannot join into new Markdown
 *    (`[x]<b>(javascript:…)` must not become a link).
 * 2. Escape (html-escape.ts): every `<` that could still start markup, whatever step 1 left or joined, gets an
 *    invisible TAG_BREAK after it. This step alone guarantees the result; step 1 only keeps the text tidy.
 *
 * Streaming: model output arrives in pieces. A line is parsed once it is complete (or SEGMENT_MAX_CHARS long);
 * until then its text is emitted up to the first `<` that may start something, because step 1 changes text only
 * from such a `<` on. So the stream emits exactly what the whole text gives, however it is split: a tag split
 * over pieces (`<scr` + `ipt>`) is never emitted in part.
 */
import { parse, postprocess, preprocess } from "micromark";
import { escapeTags, TAG_BREAK, TagEscaper } from "./html-escape";

export { escapeTags, TAG_BREAK } from "./html-escape";

/**
 * A line longer than this is parsed in parts of this length (so a long line is not held back): HTML split by a
 * part boundary is not recognised and stays as (escaped) text.
 */
export const SEGMENT_MAX_CHARS = 1_000;

/** markdown: the result is Markdown (autolinks become `[…](…)`); plain: plain text (autolinks become the address) */
export type SanitizeMode = "markdown" | "plain";

/** an open fenced code block: lines inside are code, their `<` is text */
interface Fence {
  marker: string;
  length: number;
}

/** HTML blocks are off: a line `<div>` is parsed as a paragraph, so its tag is an inline html token we can drop. */
const PARSE_OPTIONS = { extensions: [{ disable: { null: ["htmlFlow"] } }] };

type Events = ReturnType<typeof postprocess>;

function markdownEvents(text: string): Events {
  return postprocess(
    parse(PARSE_OPTIONS)
      .document()
      .write(preprocess()(text, undefined, true)),
  );
}

/** a `<` followed by one of these (or by nothing yet) may start HTML or an autolink; see hotIndex */
const MAY_START_CONSTRUCT = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/;

/** Index of the first `<` at or after `from` whose fate is still open (it may start a tag or an autolink). */
function hotIndex(text: string, from: number): number {
  for (let i = text.indexOf("<", from); i >= 0; i = text.indexOf("<", i + 1)) {
    const next = text[i + 1];
    if (next === undefined || MAY_START_CONSTRUCT.test(next)) return i;
  }
  return -1;
}

function isAsciiPunctuation(ch: string | undefined): boolean {
  return ch !== undefined && /[!-/:-@[-`{-~]/.test(ch);
}

/**
 * Would `left` and `right` join into Markdown syntax once what was between them is gone? Such syntax is two
 * touching punctuation characters starting with one of these: `](` `][` (links), `![` (images), `\*` (escapes),
 * `**` `__` `~~` and backticks (emphasis, code). `left` undefined: the start of a line, where `#`, `>`, `-`, `[`
 * … start blocks and link definitions.
 */
function mayJoin(left: string | undefined, right: string | undefined): boolean {
  return (left === undefined || "]!\\*_~`".includes(left)) && isAsciiPunctuation(right);
}

/** The fence a line opens, if it opens one (`` ``` ``, `~~~~`, also inside a list item or a quote). */
function openedFence(line: string): Fence | null {
  if (!line.includes("```") && !line.includes("~~~")) return null;
  // indentation is ignored: a fence nested in a list item is often indented 4+ spaces
  const unindented = line.replace(/^[ \t]+/, "");
  for (const [kind, token] of markdownEvents(unindented)) {
    if (kind === "enter" && token.type === "codeFencedFenceSequence") {
      return { marker: unindented[token.start.offset], length: token.end.offset - token.start.offset };
    }
  }
  return null;
}

/** Does this line close the fence (the same marker, at least as long, nothing else but indentation or quotes)? */
function closesFence(line: string, fence: Fence): boolean {
  const body = line.replace(/^[ \t>]*/, "").replace(/[ \t\r\n]*$/, "");
  return body.length >= fence.length && [...body].every((c) => c === fence.marker);
}

/** Markdown text for a link label: punctuation that means something in Markdown is backslash-escaped. */
function escapeLabel(text: string): string {
  return text.replace(/[\\`*_[\]<>&~|]/g, (c) => `\\${c}`);
}

const LINK_SCHEMES = /^(?:https?|mailto):/i;

/** An autolink `<…>` (source `raw`) as Markdown or plain text; null: keep it as text (step 2 escapes it). */
function autolinkReplacement(raw: string, email: boolean, mode: SanitizeMode): string | null {
  const address = raw.slice(1, -1);
  if (mode === "plain") return address;
  if (!email && !LINK_SCHEMES.test(address)) return null; // <javascript:…>, <data:…>: text, not a link
  const target = (email ? `mailto:${address}` : address).replace(/[\\()]/g, (c) => `\\${c}`);
  return `[${escapeLabel(address)}](${target})`;
}

/** Is this parsed html token a line break (`<br>`, `<br/>`, `<BR class=x>`)? */
function isLineBreak(raw: string): boolean {
  return /^<br(?:[\s/>])/i.test(raw);
}

/**
 * Step 1 for one segment (a line, or part of a long line). `lineStart`: the segment starts a line. Returns the
 * text and the fence state for the next segment. Changes the text only from a `<` found by hotIndex on.
 */
function sanitizeSegment(
  segment: string,
  lineStart: boolean,
  fence: Fence | null,
  mode: SanitizeMode,
): { text: string; fence: Fence | null } {
  if (fence) return { text: segment, fence: lineStart && closesFence(segment, fence) ? null : fence };
  const opened = lineStart ? openedFence(segment) : null;
  if (opened || hotIndex(segment, 0) < 0) return { text: segment, fence: opened };

  // the html and autolink tokens, in order (they do not nest)
  const found: { type: string; start: number; end: number; email: boolean }[] = [];
  const events = markdownEvents(segment);
  for (const [kind, token] of events) {
    if (kind !== "enter") continue;
    if (token.type === "htmlText" || token.type === "autolink") {
      found.push({ type: token.type, start: token.start.offset, end: token.end.offset, email: false });
    } else if (token.type === "autolinkEmail") {
      found[found.length - 1].email = true;
    }
  }
  let out = "";
  let copiedTo = 0;
  for (let k = 0; k < found.length; k++) {
    const { type, start, email } = found[k];
    out += segment.slice(copiedTo, start);
    const left = out.length > 0 ? out[out.length - 1] : undefined;
    if (type === "htmlText") {
      // a run of adjacent tags (`</script></div>`) goes as one: a line break inside it becomes a space
      let last = k;
      while (found[last + 1]?.type === "htmlText" && found[last + 1].start === found[last].end) last++;
      const end = found[last].end;
      const tags = found.slice(k, last + 1).map((t) => segment.slice(t.start, t.end));
      out += tags.some(isLineBreak) ? " " : mayJoin(left, segment[end]) ? TAG_BREAK : "";
      copiedTo = end;
      k = last;
    } else {
      const raw = segment.slice(start, found[k].end);
      let replacement = autolinkReplacement(raw, email, mode);
      if (replacement !== null && mode === "markdown" && left !== undefined && mayJoin(left, "[")) {
        replacement = TAG_BREAK + replacement; // `!<https://…>` must not become an image
      }
      out += replacement ?? raw;
      copiedTo = found[k].end;
    }
  }
  return { text: out + segment.slice(copiedTo), fence: null };
}

/** Step 1 on a stream: cuts the text into segments, emits each segment's safe prefix early. */
class SegmentSanitizer {
  private segment = "";
  /** characters of `segment` already emitted, unchanged (step 1 changes nothing before hotIndex) */
  private emitted = 0;
  private lineStart = true;
  private fence: Fence | null = null;

  constructor(private readonly mode: SanitizeMode) {}

  push(chunk: string): string {
    let out = "";
    let i = 0;
    while (i < chunk.length) {
      const room = SEGMENT_MAX_CHARS - this.segment.length;
      const newline = chunk.indexOf("\n", i);
      const end = newline >= 0 && newline < i + room ? newline + 1 : Math.min(chunk.length, i + room);
      this.segment += chunk.slice(i, end);
      i = end;
      if (this.segment.endsWith("\n") || this.segment.length >= SEGMENT_MAX_CHARS)
        out += this.finishSegment();
    }
    return out + this.emitEarly();
  }

  end(): string {
    return this.segment ? this.finishSegment() : "";
  }

  private emitEarly(): string {
    let upTo = this.segment.length;
    if (!this.fence) {
      const hot = hotIndex(this.segment, this.emitted);
      if (hot >= 0) upTo = hot;
    }
    const out = this.segment.slice(this.emitted, upTo);
    this.emitted = upTo;
    return out;
  }

  private finishSegment(): string {
    const { text, fence } = sanitizeSegment(this.segment, this.lineStart, this.fence, this.mode);
    this.lineStart = this.segment.endsWith("\n");
    this.fence = fence;
    this.segment = "";
    const rest = text.slice(this.emitted);
    this.emitted = 0;
    return rest;
  }
}

/**
 * Streaming sanitiser (see module comment): push() returns the text safe to emit now, end() the rest. The
 * concatenation of everything returned equals stripHtml (or plainText) of the whole input.
 */
export class HtmlStripper {
  private readonly segments: SegmentSanitizer;
  private readonly escaper = new TagEscaper();

  constructor(mode: SanitizeMode = "markdown") {
    this.segments = new SegmentSanitizer(mode);
  }

  push(chunk: string): string {
    return this.escaper.push(this.segments.push(chunk));
  }

  end(): string {
    return this.escaper.push(this.segments.end()) + this.escaper.end();
  }
}

/** Markdown without HTML: the whole text through HtmlStripper. */
export function stripHtml(markdown: string): string {
  const s = new HtmlStripper("markdown");
  return s.push(markdown) + s.end();
}

/** Plain text without HTML (titles, categories, tags): tags dropped, autolinks as their address, rest escaped. */
export function plainText(text: string): string {
  const s = new HtmlStripper("plain");
  return s.push(text) + s.end();
}

/** Does the text contain anything an HTML parser reads as markup? (What the functions here rule out.) */
export function containsMarkup(text: string): boolean {
  return /<[A-Za-z/!?]/.test(text);
}

/**
 * Make text from the knowledge base safe to place inside our own Markdown (titles, headings, quoted passages):
 * HTML removed, and characters that would start emphasis, code, links or citation markers escaped, so a title
 * such as "Regler [2]" is not read as a citation.
 */
export function escapeInline(text: string): string {
  // escaping adds only backslashes, which cannot make markup; the escaper runs last all the same
  return escapeTags(plainText(text).replace(/[\\`*_[\]]/g, (c) => `\\${c}`));
}
