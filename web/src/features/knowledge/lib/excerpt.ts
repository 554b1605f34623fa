/**
 * Spec §9 card rules for articles, in one place: the excerpt (the first 150 characters, or a first paragraph of more
 * than 20 characters cut to 180), the title cut at 60, and at most 3 tags (category/overview cards) or 2 (search
 * cards) followed by a '+n' count.
 *
 * The content is Markdown-like text that starts with a '# ' heading repeating the title, so the excerpt reads the
 * text without heading lines and list/number markers: a "paragraph" is a run of non-blank lines of that text.
 */

export const EXCERPT_LENGTH = 150;
export const PARAGRAPH_MIN_LENGTH = 20;
export const PARAGRAPH_EXCERPT_LENGTH = 180;
export const TITLE_LENGTH = 60;
export const CATEGORY_CARD_TAGS = 3;
export const SEARCH_CARD_TAGS = 2;
/**
 * The overview's 'Alle dokumenter (n)' cards shown at first and added by each "Vis flere": two screens' worth on a
 * phone (one column), four rows of three on a wide screen (six of two in between).
 */
export const DOCUMENTS_STEP = { phone: 6, wide: 12 } as const;

const ELLIPSIS = "…";
const HEADING = /^\s{0,3}#{1,6}\s/;
const MARKER = /^\s*(?:[-*•]|\d+[.)])\s+/;

/** `text` cut to `max` characters (whole text when short enough), '…' added when cut, never mid-word if avoidable. */
export function cut(text: string, max: number): string {
  const chars = Array.from(text.trim());
  if (chars.length <= max) return chars.join("");
  const head = chars.slice(0, max).join("");
  const space = head.lastIndexOf(" ");
  // back up to a word boundary unless that throws away more than a fifth of the room
  const trimmed = space > max * 0.8 ? head.slice(0, space) : head;
  return `${trimmed.replace(/[\s,;:.–-]+$/u, "")}${ELLIPSIS}`;
}

/** The article text without headings and list markers, as paragraphs (runs of non-blank lines joined by a space). */
function paragraphs(content: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) out.push(current.join(" "));
    current = [];
  };
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || HEADING.test(raw)) {
      flush();
      continue;
    }
    current.push(line.replace(MARKER, ""));
  }
  flush();
  return out;
}

/** The card excerpt of an article's content (spec §9). */
export function articleExcerpt(content: string): string {
  const paras = paragraphs(content);
  const first = paras[0] ?? "";
  if (Array.from(first).length > PARAGRAPH_MIN_LENGTH) return cut(first, PARAGRAPH_EXCERPT_LENGTH);
  return cut(paras.join(" "), EXCERPT_LENGTH);
}

/** A card title: cut at 60 characters. */
export function cardTitle(title: string): string {
  return cut(title, TITLE_LENGTH);
}

/** The tags a card shows and how many more there are ('+n'). */
export function cardTags(tags: readonly string[], max: number): { shown: string[]; more: number } {
  return { shown: tags.slice(0, max), more: Math.max(0, tags.length - max) };
}
