/** Figures of the statistics tab. */

/** Seconds as whole minutes, rounded (spec §2 'Gns. session'). */
export function roundedMinutes(seconds: number): number {
  return Math.round(Math.max(0, seconds) / 60);
}

/** Share of thumbs up among all ratings, 0–100 rounded; null without ratings. */
export function upShare(up: number, down: number): number | null {
  const total = up + down;
  return total > 0 ? Math.round((up / total) * 100) : null;
}

/**
 * A day of a chart axis in the reader's locale, in figures (a month's name was cut with "…" at the axis's end on a
 * phone): "2026-11-26" → "26.11." (da-DK) / "26/11" (en-GB).
 */
export function shortDay(date: string, locale: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "numeric", timeZone: "UTC" }).format(day);
}

/** Less than a minute ago (or a clock a little ahead): shown as 'lige nu'. */
export function isJustNow(value: string | Date, now: Date = new Date()): boolean {
  const diff = now.getTime() - new Date(value).getTime();
  return diff > -60_000 && diff < 60_000;
}
