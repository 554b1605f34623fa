/**
 * Spec §2: article content is rendered line by line. Each line gets one kind: '# ', '## ', '### ' headings, bullet
 * lines as list items, numbered lines as numbered items, blank lines as spacing, and short capitalised lines or lines
 * containing 'titel:' / 'notat:' in bold; everything else is a text line. The text is kept as plain text (rendered
 * by React as text, so nothing in an article becomes markup).
 */

export type LineKind = "h1" | "h2" | "h3" | "bullet" | "numbered" | "blank" | "bold" | "text";

export interface ArticleLine {
  kind: LineKind;
  text: string;
  /** the number written before a numbered item */
  number?: string;
}

/** A line this short (in characters) that starts with a capital letter reads as a label and is set in bold. */
export const SHORT_LINE_LENGTH = 60;

const HEADINGS: [RegExp, LineKind][] = [
  [/^###\s+(.*)$/, "h3"],
  [/^##\s+(.*)$/, "h2"],
  [/^#\s+(.*)$/, "h1"],
];
const BULLET = /^[-*•]\s+(.*)$/;
const NUMBERED = /^(\d{1,3})[.)]\s+(.*)$/;
const LABEL = /titel:|notat:/i;

function isShortCapitalised(line: string): boolean {
  // ends like a sentence → an ordinary short sentence, not a label
  return Array.from(line).length <= SHORT_LINE_LENGTH && /^\p{Lu}/u.test(line) && !/[.!?]$/.test(line);
}

/** The kind and text of one line. */
export function classifyLine(raw: string): ArticleLine {
  const line = raw.trim();
  if (!line) return { kind: "blank", text: "" };
  for (const [pattern, kind] of HEADINGS) {
    const m = pattern.exec(line);
    if (m) return { kind, text: (m[1] ?? "").trim() };
  }
  const bullet = BULLET.exec(line);
  if (bullet) return { kind: "bullet", text: bullet[1] ?? "" };
  const numbered = NUMBERED.exec(line);
  if (numbered) return { kind: "numbered", text: numbered[2] ?? "", number: numbered[1] };
  if (LABEL.test(line) || isShortCapitalised(line)) return { kind: "bold", text: line };
  return { kind: "text", text: line };
}

/** Every line of the content, in order; runs of blank lines count once (one spacing). */
export function articleLines(content: string): ArticleLine[] {
  const out: ArticleLine[] = [];
  for (const raw of content.split(/\r?\n/)) {
    const line = classifyLine(raw);
    if (line.kind === "blank" && (out.length === 0 || out.at(-1)?.kind === "blank")) continue;
    out.push(line);
  }
  while (out.at(-1)?.kind === "blank") out.pop();
  return out;
}
