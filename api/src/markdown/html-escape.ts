/**
 * The last step before text we store is shown to others: after it, no HTML parser can read a tag, comment,
 * doctype or processing instruction in the text, whatever came before it (tags nested into each other, a tag
 * split over stream chunks, a removal that brought two halves together). Escaping, not stripping: nothing is
 * removed, so nothing can join up afterwards.
 *
 * An HTML tokenizer starts markup only at `<` directly followed by an ASCII letter, `/`, `!` or `?`. After such
 * a `<` we insert TAG_BREAK (U+200B, zero-width space): the text reads the same, and the `<` is plain text in
 * HTML and in Markdown alike. Two cases are added so that one later entity decode cannot make a tag either:
 * `<` followed by `&` gets the break too (`<&#115;cript>` would decode to `<script>`), and a character reference
 * that decodes to `<` (`&lt;`, `&LT`, `&#60;`, `&#x3C`, …; HTML accepts them without `;`) becomes `<` plus the
 * break.
 *
 * Dependency-free and streaming: push() returns what is safe to emit now (at most REFERENCE_WINDOW characters
 * are held back, only after a `<` or an `&`); the result does not depend on how the text is split.
 */

/** inserted after a `<` that would otherwise start markup; invisible when shown */
export const TAG_BREAK = "\u200B";

/**
 * how far past an `&` we look to recognise a character reference to `<`; a numeric reference with digits
 * running past it is written as `&amp;…` (no real text has 30 leading zeros)
 */
export const REFERENCE_WINDOW = 32;

/** what may follow `<` for an HTML tokenizer to start markup (plus `&`, see above) */
function startsMarkup(next: string): boolean {
  return /[A-Za-z/!?&]/.test(next);
}

type AmpDecision =
  | { kind: "wait" }
  | { kind: "copy" }
  | { kind: "lt"; length: number }
  | { kind: "overlong" };

/**
 * `window`: the text from an "&", at most REFERENCE_WINDOW long; `complete`: no more text will join it (the
 * window is full or the text ended). Waits only while the reference could still grow.
 */
function decideAmp(window: string, complete: boolean): AmpDecision {
  if (window.length === 1 || window === "&l" || window === "&L")
    return complete ? { kind: "copy" } : { kind: "wait" };
  const named = /^&(?:lt|LT)(;?)/.exec(window);
  if (named) {
    if (!named[1] && window.length === 3 && !complete) return { kind: "wait" }; // a ";" may follow
    return { kind: "lt", length: named[0].length };
  }
  const numeric = /^&#(?:[xX]([0-9a-fA-F]*)|([0-9]*))(;?)/.exec(window);
  if (!numeric) return { kind: "copy" };
  if (!numeric[3] && numeric[0].length === window.length) {
    // the digits run to the end of what we have: more digits or a ";" may follow
    if (!complete) return { kind: "wait" };
    if (window.length === REFERENCE_WINDOW) return { kind: "overlong" };
  }
  const digits = numeric[1] ?? numeric[2];
  if (!digits) return { kind: "copy" };
  const value = Number.parseInt(digits, numeric[1] !== undefined ? 16 : 10);
  return value === 0x3c ? { kind: "lt", length: numeric[0].length } : { kind: "copy" };
}

/** Streaming escaper (see module comment). */
export class TagEscaper {
  private pending = "";

  push(chunk: string): string {
    return this.run(chunk, false);
  }

  end(): string {
    return this.run("", true);
  }

  private run(chunk: string, atEnd: boolean): string {
    const input = this.pending + chunk;
    this.pending = "";
    let out = "";
    let from = 0;
    let i = 0;
    while (i < input.length) {
      const ch = input[i];
      if (ch !== "<" && ch !== "&") {
        i++;
        continue;
      }
      out += input.slice(from, i);
      if (ch === "<") {
        const next = input[i + 1];
        if (next === undefined && !atEnd) {
          this.pending = "<";
          return out;
        }
        out += next !== undefined && startsMarkup(next) ? `<${TAG_BREAK}` : "<";
        i++;
      } else {
        const window = input.slice(i, i + REFERENCE_WINDOW);
        const d = decideAmp(window, atEnd || window.length === REFERENCE_WINDOW);
        if (d.kind === "wait") {
          this.pending = input.slice(i);
          return out;
        }
        if (d.kind === "lt") {
          out += `<${TAG_BREAK}`;
          i += d.length;
        } else {
          out += d.kind === "overlong" ? "&amp;" : "&";
          i++;
        }
      }
      from = i;
    }
    return out + input.slice(from);
  }
}

/** Escape a whole text (same rules as the stream). */
export function escapeTags(text: string): string {
  const e = new TagEscaper();
  return e.push(text) + e.end();
}
