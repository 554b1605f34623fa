import type { Translate } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";

/**
 * A bookmark card's one date line: when it was saved (the list's order), and the article's last update only when
 * it came after that ("Gemt 3. november 2026 · opdateret 5. november 2026"): what was saved may have changed since.
 * An article not updated since shows the saved date alone, as a knowledge card shows one date.
 */
export function bookmarkDate(savedAt: string, updatedAt: string, t: Translate, locale: string): string {
  const date = formatDate(savedAt, locale);
  if (!(Date.parse(updatedAt) > Date.parse(savedAt))) return t("knowledge.bookmarkedAt", { date });
  return t("knowledge.bookmarkedUpdatedSince", { date, updated: formatDate(updatedAt, locale) });
}
