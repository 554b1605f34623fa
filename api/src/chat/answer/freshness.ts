/** Freshness warnings for cited articles that have not been updated for a long time. */
import { escapeInline } from "../../markdown/sanitize";
import { answerTexts, formatDate } from "./texts";
import type { AnswerLanguage, Citation, FreshnessWarning } from "./types";

export const DEFAULT_STALE_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One warning per cited article (first citation wins) whose updatedAt is more than `staleDays` days before `now`.
 * Citations without updatedAt are not judged.
 */
export function freshnessWarnings(
  citations: Citation[],
  {
    now,
    staleDays = DEFAULT_STALE_DAYS,
    language = "da",
  }: { now: Date; staleDays?: number; language?: AnswerLanguage },
): FreshnessWarning[] {
  const seen = new Set<string>();
  const out: FreshnessWarning[] = [];
  for (const c of citations) {
    if (!c.updatedAt || seen.has(c.articleId)) continue;
    seen.add(c.articleId);
    if (now.getTime() - c.updatedAt.getTime() <= staleDays * DAY_MS) continue;
    out.push({
      number: c.number,
      articleId: c.articleId,
      title: c.title,
      updatedAt: c.updatedAt,
      message: answerTexts[language].stale(
        escapeInline(c.title),
        c.number,
        formatDate(c.updatedAt, language),
        staleDays,
      ),
    });
  }
  return out;
}
