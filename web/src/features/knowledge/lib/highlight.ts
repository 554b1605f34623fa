/** Splits server text into plain and highlighted pieces from [start, end) ranges (the server sends no markup). */

export interface TextRange {
  start: number;
  end: number;
}

export interface TextPiece {
  text: string;
  highlighted: boolean;
}

/**
 * `text` as pieces in order; ranges are clamped to the text, sorted and merged, so bad or overlapping ranges never
 * lose or repeat characters. Joining every piece's text gives back `text`.
 */
export function splitHighlights(text: string, ranges: readonly TextRange[]): TextPiece[] {
  const clean = ranges
    .map((r) => ({
      start: Math.max(0, Math.min(r.start, text.length)),
      end: Math.max(0, Math.min(r.end, text.length)),
    }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: TextRange[] = [];
  for (const r of clean) {
    const last = merged.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const r of merged) {
    if (r.start > at) pieces.push({ text: text.slice(at, r.start), highlighted: false });
    pieces.push({ text: text.slice(r.start, r.end), highlighted: true });
    at = r.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), highlighted: false });
  return pieces;
}
