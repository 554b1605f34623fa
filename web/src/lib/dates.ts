/** Spec §9: weeks start on Monday in the Danish locale (for the date pickers and week groupings of later screens). */
export const WEEK_STARTS_ON = 1 as const;

/** A date as the locale writes it, e.g. 22.6.2025 in da-DK or 22 June 2025 with a long month. */
export function formatDate(
  value: string | Date,
  locale: string,
  options?: Intl.DateTimeFormatOptions,
): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return new Intl.DateTimeFormat(
    locale,
    options ?? { day: "numeric", month: "long", year: "numeric" },
  ).format(date);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

/**
 * Relative time in the user's language: in Danish 'om 3 dage' (future) / '5 minutter siden' (past).
 * `language` is the bare language tag ('da' or 'en').
 */
export function formatRelative(value: string | Date, language: string, now: Date = new Date()): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const diffSeconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: "always" });
  for (const [unit, seconds] of UNITS) {
    if (Math.abs(diffSeconds) >= seconds || unit === "second") {
      return rtf.format(Math.trunc(diffSeconds / seconds), unit);
    }
  }
  return rtf.format(0, "second");
}
