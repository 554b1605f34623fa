/**
 * Removes raw HTML from model output. The client renders Markdown without HTML, but the stored answer is also
 * read by REST clients and exports, so tags never leave the engine: `<tag …>`, `</tag>`, `<!-- … -->`,
 * `<!DOCTYPE …>` and `<?…?>` are dropped (their inner text stays, as plain text); `<br>` becomes a space.
 * What is not a tag stays: `a < b`, `<5 år`, autolinks `<https://…>` and `<navn@firma.dk>`.
 *
 * Works on a stream: a `<` whose fate is not yet known is held back until the following text decides it, so a
 * tag split across tokens (`<scr` + `ipt>`) is never emitted in part.
 */

/** a tag can be this long before we stop waiting for its `>` and treat the `<` as text */
const MAX_TAG_LENGTH = 400;
const MAX_COMMENT_LENGTH = 4_000;

const COMPLETE_TAG = /^<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/][^<>]*)?>/;
const TAG_PREFIX = /^<\/?(?:[A-Za-z][A-Za-z0-9-]*(?:[\s/][^<>]*)?)?$/;
const COMPLETE_DECLARATION = /^<[!?][A-Za-z?][^<>]*>/;
const DECLARATION_PREFIX = /^<[!?](?:[A-Za-z?][^<>]*)?$/;

type Decision = { kind: "text" } | { kind: "tag"; length: number; replacement: string } | { kind: "wait" };

function decide(rest: string): Decision {
  if (rest.startsWith("<!--")) {
    const end = rest.indexOf("-->", 4);
    if (end >= 0) return { kind: "tag", length: end + 3, replacement: "" };
    return rest.length > MAX_COMMENT_LENGTH ? { kind: "text" } : { kind: "wait" };
  }
  if ("<!--".startsWith(rest)) return { kind: "wait" }; // "<", "<!", "<!-"
  const tag = COMPLETE_TAG.exec(rest) ?? COMPLETE_DECLARATION.exec(rest);
  if (tag) {
    const replacement = /^<br\b/i.test(tag[0]) ? " " : "";
    return { kind: "tag", length: tag[0].length, replacement };
  }
  if (rest.length <= MAX_TAG_LENGTH && (TAG_PREFIX.test(rest) || DECLARATION_PREFIX.test(rest))) {
    return { kind: "wait" };
  }
  return { kind: "text" };
}

/** Streaming HTML stripper: push() returns the text that is safe to emit now; end() flushes the rest. */
export class HtmlStripper {
  private pending = "";

  push(chunk: string): string {
    const input = this.pending + chunk;
    this.pending = "";
    let out = "";
    let i = 0;
    while (i < input.length) {
      const lt = input.indexOf("<", i);
      if (lt < 0) {
        out += input.slice(i);
        break;
      }
      out += input.slice(i, lt);
      const d = decide(input.slice(lt));
      if (d.kind === "wait") {
        this.pending = input.slice(lt);
        break;
      }
      if (d.kind === "text") {
        out += "<";
        i = lt + 1;
      } else {
        out += d.replacement;
        i = lt + d.length;
      }
    }
    return out;
  }

  /** End of input: an unfinished tag (`<div class="x` without `>`) cannot render as HTML; drop it anyway. */
  end(): string {
    const rest = this.pending;
    this.pending = "";
    if (/^<(?:[/!?]|[A-Za-z][A-Za-z0-9-]*[\s/])/.test(rest)) return "";
    return rest; // "<" or "<b" alone: harmless text
  }
}

/** Strip HTML from a whole text (same rules as the stream). */
export function stripHtml(text: string): string {
  const s = new HtmlStripper();
  return s.push(text) + s.end();
}

/**
 * Make text from the knowledge base safe to place inside our own Markdown (titles, headings, quoted passages):
 * HTML removed, and characters that would start emphasis, code, links or citation markers escaped, so a title
 * such as "Regler [2]" is not read as a citation.
 */
export function escapeInline(text: string): string {
  return stripHtml(text).replace(/[\\`*_[\]]/g, (c) => `\\${c}`);
}
