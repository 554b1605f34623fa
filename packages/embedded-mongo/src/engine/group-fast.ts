/**
 * A fast path for the common `$group` stage: mingo evaluates every expression of every document through its
 * generic evaluator (about 10 µs per document and accumulator), which makes a group over a million documents
 * take many seconds. Here the stage is compiled once into plain functions when it only uses:
 *
 * - `_id`: a constant, a field path ("$a.b"), a `$dateToString` of a field path (format specifiers
 *   %Y %m %d %H %M %S %L %%, optional timezone: a constant zone name or offset), or an object of those;
 * - accumulators `$sum` (a number or an operand), `$min`, `$max`, `$avg`, `$first`, `$last` of an operand: a
 *   field path or `$subtract` of two field paths (dates or plain numbers).
 *
 * Anything else — and any document where a path crosses an array, or a date operand is not a date — makes
 * it return undefined, and the stage runs through mingo as before (the input is not modified either way).
 * Semantics follow mongod and the engine's mingo context: groups keyed by the canonical BSON key (null and
 * missing are one group), $min/$max in BSON order ignoring null and missing, exact integer $sum.
 */
import type { Document } from "bson";
import { zoneOffsetMinutes } from "./date-timezone";
import { encodeKey, isPlainObject, numericValue } from "./keys";
import { exactSum } from "./mingo-context";

class Bail extends Error {}
const BAIL = new Bail();
const UNSET = Symbol("unset");

type Getter = (doc: Document) => unknown;

function pathGetter(expr: string): Getter | undefined {
  if (!/^\$[^$.][^$]*$/.test(expr)) return undefined;
  const parts = expr.slice(1).split(".");
  if (parts.some((p) => p === "")) return undefined;
  if (parts.length === 1) {
    const [key] = parts;
    return (doc) => {
      const v = doc[key];
      if (Array.isArray(v)) throw BAIL;
      return v;
    };
  }
  return (doc) => {
    let v: unknown = doc;
    for (const p of parts) {
      if (v === null || v === undefined) return undefined;
      if (Array.isArray(v) || typeof v !== "object") {
        if (Array.isArray(v)) throw BAIL;
        return undefined;
      }
      v = (v as Document)[p];
    }
    if (Array.isArray(v)) throw BAIL;
    return v;
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const SPECIFIERS: Record<string, (d: Date) => string> = {
  "%Y": (d) => pad(d.getUTCFullYear(), 4),
  "%m": (d) => pad(d.getUTCMonth() + 1),
  "%d": (d) => pad(d.getUTCDate()),
  "%H": (d) => pad(d.getUTCHours()),
  "%M": (d) => pad(d.getUTCMinutes()),
  "%S": (d) => pad(d.getUTCSeconds()),
  "%L": (d) => pad(d.getUTCMilliseconds(), 3),
  "%%": () => "%",
};

const COARSE = new Set(["%Y", "%m", "%d", "%H", "%%"]);
const QUARTER_MS = 15 * 60_000;

function fixedOffset(zone: string): number | undefined {
  const m = /^([+-])([01]\d|2[0-3]):?([0-5]\d)?$/.exec(zone);
  if (!m) return undefined;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

function dateToStringGetter(spec: unknown): Getter | undefined {
  if (!isPlainObject(spec) || typeof spec.date !== "string") return undefined;
  if (Object.keys(spec).some((k) => k !== "date" && k !== "format" && k !== "timezone")) return undefined;
  const date = pathGetter(spec.date);
  const format = spec.format ?? "%Y-%m-%dT%H:%M:%S.%LZ";
  if (!date || typeof format !== "string") return undefined;
  const tokens = format.split(/(%.)/).filter((t) => t !== "");
  if (tokens.some((t) => t.startsWith("%") && t.length === 2 && !SPECIFIERS[t])) return undefined;
  const parts = tokens.map((t) => SPECIFIERS[t] ?? (() => t));
  let offset: (ms: number) => number = () => 0;
  if (spec.timezone !== undefined) {
    if (typeof spec.timezone !== "string") return undefined;
    const zone = spec.timezone;
    const fixed = fixedOffset(zone);
    if (fixed !== undefined) offset = () => fixed;
    else if (/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/.test(zone)) {
      try {
        zoneOffsetMinutes(zone, 0);
      } catch {
        return undefined; // an unknown zone: mingo reports it
      }
      offset = (ms) => zoneOffsetMinutes(zone, ms);
    } else return undefined;
  }
  const format1 = (ms: number) => {
    const local = new Date(ms + offset(ms) * 60_000);
    let out = "";
    for (const part of parts) out += part(local);
    return out;
  };
  // down to the hour, a date's text is the same for a whole quarter hour (zone offsets change on quarter hours)
  const coarse = tokens.every((t) => !t.startsWith("%") || t.length !== 2 || COARSE.has(t));
  const memo = new Map<number, string>();
  return (doc) => {
    const v = date(doc);
    if (v === null || v === undefined) return null;
    if (!(v instanceof Date)) throw BAIL;
    const ms = v.getTime();
    if (Number.isNaN(ms)) throw BAIL;
    if (!coarse) return format1(ms);
    const quarter = Math.floor(ms / QUARTER_MS);
    let text = memo.get(quarter);
    if (text === undefined) {
      // an offset off the quarter hours (local mean time before ~1900, "+05:07") moves the hour boundary
      text = offset(quarter * QUARTER_MS) % 15 === 0 ? format1(quarter * QUARTER_MS) : "";
      if (memo.size >= 100_000) memo.clear();
      memo.set(quarter, text);
    }
    return text === "" ? format1(ms) : text;
  };
}

function valueGetter(expr: unknown): Getter | undefined {
  if (typeof expr === "string") return expr.startsWith("$") ? pathGetter(expr) : () => expr;
  if (expr === null || typeof expr === "number" || typeof expr === "boolean") return () => expr;
  if (!isPlainObject(expr)) return undefined;
  const keys = Object.keys(expr);
  if (keys.length === 1 && keys[0] === "$dateToString") return dateToStringGetter(expr.$dateToString);
  if (keys.length === 0 || keys.some((k) => k.startsWith("$") || k.includes("."))) return undefined;
  const getters = keys.map((k) => [k, valueGetter(expr[k])] as const);
  if (getters.some(([, g]) => !g || g === undefined)) return undefined;
  return (doc) => {
    const out: Document = {};
    for (const [k, g] of getters) {
      const v = (g as Getter)(doc);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
}

/** An accumulator's operand: a field path, or `$subtract` of two field paths (a duration from two dates). */
function operandGetter(arg: unknown): Getter | undefined {
  if (typeof arg === "string") return pathGetter(arg);
  if (!isPlainObject(arg) || Object.keys(arg).length !== 1 || !Array.isArray(arg.$subtract)) return undefined;
  const [a, b] = arg.$subtract.map((x: unknown) => (typeof x === "string" ? pathGetter(x) : undefined));
  if (arg.$subtract.length !== 2 || !a || !b) return undefined;
  return (doc) => {
    const x = a(doc);
    const y = b(doc);
    if (x === null || x === undefined || y === null || y === undefined) return null;
    if (x instanceof Date && y instanceof Date) return x.getTime() - y.getTime();
    if (typeof x === "number" && typeof y === "number") return x - y;
    throw BAIL; // other types (Long, Decimal128, date − number): the general path
  };
}

interface Accumulator {
  init(): unknown;
  step(state: unknown, doc: Document): unknown;
  done(state: unknown): unknown;
}

function better(sign: 1 | -1, best: unknown, v: unknown): boolean {
  if (v instanceof Date && best instanceof Date) return sign * (v.getTime() - best.getTime()) > 0;
  if (typeof v === "number" && typeof best === "number") return sign * (v - best) > 0;
  const kv = encodeKey(v);
  const kb = encodeKey(best);
  return sign === 1 ? kv > kb : kv < kb;
}

function accumulator(spec: unknown): Accumulator | undefined {
  if (!isPlainObject(spec) || Object.keys(spec).length !== 1) return undefined;
  const [op] = Object.keys(spec);
  const arg = spec[op];
  if (op === "$sum" && typeof arg === "number") {
    return { init: () => 0, step: (n) => (n as number) + 1, done: (n) => exactSum([(n as number) * arg]) };
  }
  const get = operandGetter(arg);
  if (!get) return undefined;
  switch (op) {
    case "$sum":
      return {
        init: () => [],
        step: (xs, d) => {
          (xs as unknown[]).push(get(d));
          return xs;
        },
        done: (xs) => exactSum(xs as unknown[]),
      };
    case "$avg":
      return {
        init: () => ({ sum: 0, n: 0 }),
        step: (s, d) => {
          const n = numericValue(get(d));
          const st = s as { sum: number; n: number };
          if (n !== undefined) {
            st.sum += n;
            st.n++;
          }
          return st;
        },
        done: (s) =>
          (s as { n: number }).n === 0 ? null : (s as { sum: number }).sum / (s as { n: number }).n,
      };
    case "$min":
    case "$max": {
      const sign = op === "$max" ? 1 : -1;
      return {
        init: () => undefined,
        step: (best, d) => {
          const v = get(d);
          if (v === null || v === undefined) return best;
          return best === undefined || better(sign, best, v) ? v : best;
        },
        done: (best) => (best === undefined ? null : best),
      };
    }
    case "$first":
      return { init: () => UNSET, step: (s, d) => (s === UNSET ? (get(d) ?? null) : s), done: (s) => s };
    case "$last":
      return { init: () => null, step: (_s, d) => get(d) ?? null, done: (s) => s };
    default:
      return undefined;
  }
}

/** The documents a `$group` stage produces from `input`, or undefined when the fast path does not apply. */
export function fastGroup(stage: unknown, input: Iterable<Document>): Document[] | undefined {
  if (!isPlainObject(stage) || !("_id" in stage)) return undefined;
  const id = valueGetter(stage._id);
  if (!id) return undefined;
  const fields = Object.keys(stage).filter((k) => k !== "_id");
  const accs = fields.map((f) => accumulator(stage[f]));
  if (accs.some((a) => !a)) return undefined;
  const groups = new Map<string, { id: unknown; states: unknown[] }>();
  try {
    for (const doc of input) {
      const key = id(doc);
      const k = encodeKey(key);
      let g = groups.get(k);
      if (!g) {
        g = { id: key === undefined ? null : key, states: accs.map((a) => (a as Accumulator).init()) };
        groups.set(k, g);
      }
      for (let i = 0; i < accs.length; i++) g.states[i] = (accs[i] as Accumulator).step(g.states[i], doc);
    }
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
  return [...groups.values()].map((g) => {
    const out: Document = { _id: g.id };
    fields.forEach((f, i) => {
      out[f] = (accs[i] as Accumulator).done(g.states[i]);
    });
    return out;
  });
}
