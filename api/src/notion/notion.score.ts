/**
 * The suitability score of a workspace database (spec §5): +40 when a property is of type title, +40 when one is
 * of type rich_text, +20 when the title names one of the keywords; capped at 100, recommended at 80 or more.
 */
export const SCORE_KEYWORDS = [
  "knowledge",
  "vidensbank",
  "articles",
  "dokumenter",
  "procedurer",
  "guides",
  "wiki",
  "noter",
] as const;
export const RECOMMENDED_SCORE = 80;

export function suitabilityScore(title: string, properties: Record<string, { type: string }>): number {
  const types = Object.values(properties).map((p) => p.type);
  const lower = title.toLowerCase();
  let score = 0;
  if (types.includes("title")) score += 40;
  if (types.includes("rich_text")) score += 40;
  if (SCORE_KEYWORDS.some((k) => lower.includes(k))) score += 20;
  return Math.min(score, 100);
}

export function isRecommended(score: number): boolean {
  return score >= RECOMMENDED_SCORE;
}
