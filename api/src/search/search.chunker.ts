import type { ChunkOptions, IndexableArticle, Passage } from "./search.types";

export const DEFAULT_CHUNK_OPTIONS: Required<ChunkOptions> = {
  maxWords: 180,
  overlapWords: 30,
  minWords: 25,
};

const HEADING_RE = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

interface Section {
  path: string[];
  text: string;
}

function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

/** Splits the body into sections at headings; each keeps the path of headings above it. */
function sections(title: string, content: string): Section[] {
  const out: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let lines: string[] = [];
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text) out.push({ path: stack.map((h) => h.text), text });
    lines = [];
  };
  const normTitle = title.trim().toLowerCase();
  for (const line of content.replace(/\r\n?/g, "\n").split("\n")) {
    const m = HEADING_RE.exec(line.trim());
    if (!m) {
      lines.push(line.trimEnd());
      continue;
    }
    flush();
    const level = m[1].length;
    const text = m[2].trim();
    // A top-level heading repeating the article title adds nothing to the path.
    if (level === 1 && text.toLowerCase() === normTitle) {
      stack.length = 0;
      continue;
    }
    while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, text });
  }
  flush();
  return out;
}

function isPrefix(prefix: string[], path: string[]): boolean {
  return prefix.length < path.length && prefix.every((h, i) => path[i] === h);
}

/** Cuts a long text into windows of at most maxWords words, preferring line ends, with overlap. */
function windows(text: string, maxWords: number, overlapWords: number): string[] {
  const spans = [...text.matchAll(/\S+/g)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
  if (spans.length <= maxWords) return [text];
  const overlap = Math.max(0, Math.min(overlapWords, Math.floor(maxWords / 2)));
  const out: string[] = [];
  let s = 0;
  while (s < spans.length) {
    let e = Math.min(s + maxWords, spans.length);
    if (e < spans.length) {
      // Prefer to end at a line break in the last third of the window.
      for (let j = e - 1; j > s + Math.floor((maxWords * 2) / 3); j--) {
        if (text.slice(spans[j].end, spans[j + 1].start).includes("\n")) {
          e = j + 1;
          break;
        }
      }
    }
    out.push(text.slice(spans[s].start, spans[e - 1].end));
    if (e >= spans.length) break;
    s = Math.max(e - overlap, s + 1);
  }
  return out;
}

/**
 * Splits an article into passages for retrieval: one per heading section, a short section merged
 * into its first sub-section, a long section cut into overlapping windows of at most maxWords.
 */
export function chunkArticle(
  article: Pick<IndexableArticle, "id" | "title" | "content" | "category">,
  options: ChunkOptions = {},
): Passage[] {
  const opts = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  const maxWords = Math.max(10, Math.floor(opts.maxWords));
  const secs = sections(article.title, article.content);

  // Merge an intro that is too short to stand alone into the sub-section that follows it.
  const merged: Section[] = [];
  for (let i = 0; i < secs.length; i++) {
    const cur = secs[i];
    const next = secs[i + 1];
    if (next && countWords(cur.text) < opts.minWords && isPrefix(cur.path, next.path)) {
      secs[i + 1] = { path: next.path, text: `${cur.text}\n${next.text}` };
      continue;
    }
    merged.push(cur);
  }

  const passages: Passage[] = [];
  for (const sec of merged) {
    for (const text of windows(sec.text, maxWords, opts.overlapWords)) {
      const position = passages.length;
      passages.push({
        id: `${article.id}#${position}`,
        articleId: article.id,
        title: article.title,
        category: article.category,
        headingPath: sec.path,
        text,
        position,
        wordCount: countWords(text),
      });
    }
  }
  return passages;
}
