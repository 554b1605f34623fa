/**
 * `$dateToString` with an Olson time zone ("Europe/Copenhagen"), fast and DST-correct. mingo finds a zone's
 * offset by formatting the date twice through toLocaleString, about 0.2 ms per document: a 30-day chart over
 * 100,000 messages took seconds. Here the offset comes from one cached Intl.DateTimeFormat per zone and is
 * memoised per zone and quarter hour (every DST change in the tz database falls on a quarter hour; a quarter
 * whose two ends disagree is computed exactly for each date). The zone name is turned into a fixed "+hh:mm"
 * offset for that date and mingo's own operator formats the date, so the output is unchanged.
 */
import { evalExpr } from "mingo/core";
import { $dateToString as mingoDateToString } from "mingo/operators/expression";
import type { AnyObject, Options } from "mingo/types";
import { isPlainObject } from "./keys";

const ZONE_NAME = /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/;
const QUARTER_MS = 15 * 60_000;
const MEMO_LIMIT = 100_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const memo = new Map<string, number>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      throw new Error(`unrecognized time zone identifier: "${zone}"`);
    }
    formatters.set(zone, f);
  }
  return f;
}

/** Minutes `zone` is ahead of UTC at the instant `ms`, computed exactly. */
function exactOffset(zone: string, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") p[part.type] = Number(part.value);
  }
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** Minutes `zone` is ahead of UTC at the instant `ms` (memoised per quarter hour). */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  const quarter = Math.floor(ms / QUARTER_MS);
  const key = `${zone}|${quarter}`;
  let offset = memo.get(key);
  if (offset === undefined) {
    const start = exactOffset(zone, quarter * QUARTER_MS);
    const end = exactOffset(zone, (quarter + 1) * QUARTER_MS - 1);
    offset = start === end ? start : Number.NaN;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, offset);
  }
  return Number.isNaN(offset) ? exactOffset(zone, ms) : offset;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "+hh:mm" / "-hh:mm" for an offset in minutes. */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The engine's `$dateToString`: a zone name becomes the date's fixed offset, then mingo formats. */
export function $dateToString(obj: AnyObject, expr: unknown, options: Options): unknown {
  if (isPlainObject(expr) && expr.timezone !== undefined) {
    const zone = evalExpr(obj, expr.timezone, options);
    if (typeof zone === "string" && ZONE_NAME.test(zone)) {
      const date = evalExpr(obj, expr.date, options);
      if (date instanceof Date && !Number.isNaN(date.getTime())) {
        const timezone = offsetText(zoneOffsetMinutes(zone, date.getTime()));
        return mingoDateToString(obj, { ...expr, timezone }, options);
      }
    }
  }
  return mingoDateToString(obj, expr, options);
}
