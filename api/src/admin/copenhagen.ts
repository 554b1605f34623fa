/**
 * Calendar days in Europe/Copenhagen (the secretariat's time zone), DST-correct: "today" starts at local midnight,
 * which is 23:00 UTC in winter (CET, +01:00) and 22:00 UTC in summer (CEST, +02:00). Day keys are "yyyy-MM-dd"
 * exactly as the store's `$dateToString` with `timezone: "Europe/Copenhagen"` writes them.
 */
export const STATS_TIME_ZONE = "Europe/Copenhagen";

/** Built at first use, not at import: building one loads the time-zone data (milliseconds at start). */
let parts: Intl.DateTimeFormat | null = null;

function copenhagenParts(): Intl.DateTimeFormat {
  parts ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: STATS_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return parts;
}

function localFields(at: Date): { y: number; m: number; d: number; h: number; min: number } {
  const fields = copenhagenParts().formatToParts(at);
  const get = (type: string) => Number(fields.find((p) => p.type === type)?.value.replace(/^24$/, "0"));
  return { y: get("year"), m: get("month"), d: get("day"), h: get("hour"), min: get("minute") };
}

/** Minutes Copenhagen is ahead of UTC at this instant (60 or 120). */
export function copenhagenOffsetMinutes(at: Date): number {
  const f = localFields(at);
  const asUtc = Date.UTC(f.y, f.m - 1, f.d, f.h, f.min);
  return Math.round((asUtc - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

/** "yyyy-MM-dd" of the Copenhagen day this instant falls on. */
export function copenhagenDay(at: Date): string {
  const f = localFields(at);
  return `${f.y}-${String(f.m).padStart(2, "0")}-${String(f.d).padStart(2, "0")}`;
}

/** The instant local midnight began on the Copenhagen day of `at` (midnight is never inside a DST jump here). */
export function copenhagenMidnight(at: Date): Date {
  const f = localFields(at);
  const wallMidnight = Date.UTC(f.y, f.m - 1, f.d);
  let guess = wallMidnight - copenhagenOffsetMinutes(at) * 60_000;
  // the offset at midnight can differ from the offset now (the day DST starts or ends)
  guess = wallMidnight - copenhagenOffsetMinutes(new Date(guess)) * 60_000;
  return new Date(guess);
}

/**
 * The last `n` Copenhagen days up to and including today, oldest first, with the instant the oldest began:
 * `since` is the lower bound of a store query that covers exactly these days.
 */
export function lastCopenhagenDays(n: number, now = new Date()): { days: string[]; since: Date } {
  const days: string[] = [];
  let midnight = copenhagenMidnight(now);
  for (let i = 0; i < n; i++) {
    days.unshift(copenhagenDay(midnight));
    if (i < n - 1) midnight = copenhagenMidnight(new Date(midnight.getTime() - 3_600_000));
  }
  return { days, since: midnight };
}

/** Zero-filled counts for `days` from a day → count map. */
export function fillDays(
  days: string[],
  counts: Map<string, number>,
): Array<{ date: string; count: number }> {
  return days.map((date) => ({ date, count: counts.get(date) ?? 0 }));
}
