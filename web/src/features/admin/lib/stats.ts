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

/** "2026-11-26" → "26/11" for chart axes. */
export function shortDay(date: string): string {
  const [, m, d] = date.split("-");
  return d && m ? `${d}/${m}` : date;
}

/** Less than a minute ago (or a clock a little ahead): shown as 'lige nu'. */
export function isJustNow(value: string | Date, now: Date = new Date()): boolean {
  const diff = now.getTime() - new Date(value).getTime();
  return diff > -60_000 && diff < 60_000;
}
