/**
 * mingo configured for BSON values: mingo compares values of different JS classes as different types, so Long vs
 * number comparisons fail, Long/Decimal128 order as strings and $type knows no objectId. The comparison query
 * operators, $type and the $sort stage are replaced here by versions built on the canonical key encoding.
 */
import { Long } from "bson";
import { Aggregator as AggregatorBase } from "mingo/aggregator";
import { Context } from "mingo/core";
import { Lazy } from "mingo/lazy";
import * as accumulatorOperators from "mingo/operators/accumulator";
import { $push } from "mingo/operators/accumulator";
import * as expressionOperators from "mingo/operators/expression";
import * as pipelineOperators from "mingo/operators/pipeline";
import * as projectionOperators from "mingo/operators/projection";
import * as queryOperators from "mingo/operators/query";
import * as windowOperators from "mingo/operators/window";
import { Query as QueryBase } from "mingo/query";
import type { AnyObject, Options } from "mingo/types";
import { resolve } from "mingo/util";
import { $dateToString } from "./date-timezone";
import { bsonTypeOf, encodeKey, isPlainObject, numericValue } from "./keys";

type Pred = (lhs: unknown, rhs: unknown, depth: number) => boolean;

const isNil = (v: unknown) => v === null || v === undefined;

function flatten(xs: unknown[], depth: number): unknown[] {
  const out: unknown[] = [];
  const go = (ys: unknown[], d: number) => {
    for (const y of ys) {
      if (Array.isArray(y) && d > 0) go(y, d - 1);
      else out.push(y);
    }
  };
  go(xs, depth);
  return out;
}

function eq(a: unknown, b: unknown, depth: number): boolean {
  if (b === null || b === undefined) {
    if (isNil(a)) return true;
    return Array.isArray(a) && flatten(a, depth).some(isNil);
  }
  const enc = encodeKey(b);
  if (a === undefined) return false;
  if (encodeKey(a) === enc) return true;
  if (Array.isArray(a)) return flatten(a, depth).some((v) => v !== undefined && encodeKey(v) === enc);
  return false;
}

function cmp(test: (c: number) => boolean, allowNull: boolean): Pred {
  return (a, b, depth) => {
    if (b === null) return allowNull ? eq(a, null, depth) : false;
    const kb = encodeKey(b);
    const check = (v: unknown) => {
      if (v === undefined) return false;
      const kv = encodeKey(v);
      if (kv[0] !== kb[0]) return false; // type bracketing
      return test(kv < kb ? -1 : kv > kb ? 1 : 0);
    };
    if (Array.isArray(a)) {
      if (Array.isArray(b) && check(a)) return true;
      return flatten(a, depth).some(check);
    }
    return check(a);
  };
}

function isRegex(v: unknown): v is RegExp {
  return v instanceof RegExp;
}

function inPred(a: unknown, b: unknown, depth: number): boolean {
  if (!Array.isArray(b)) throw new Error("$in needs an array");
  const values = Array.isArray(a) ? flatten(a, depth) : [a];
  for (const x of b) {
    if (isRegex(x)) {
      if (values.some((v) => typeof v === "string" && x.test(v))) return true;
    } else if (eq(a, x, depth)) return true;
  }
  return false;
}

const TYPE_ALIASES: Record<string, string> = {
  1: "double",
  2: "string",
  3: "object",
  4: "array",
  5: "binData",
  6: "undefined",
  7: "objectId",
  8: "bool",
  9: "date",
  10: "null",
  11: "regex",
  13: "javascript",
  16: "int",
  17: "timestamp",
  18: "long",
  19: "decimal",
  "-1": "minKey",
  127: "maxKey",
};

/** the BSON type name a value is stored as */
export function bsonTypeName(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number")
    return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? "int" : "double";
  if (typeof v === "bigint") return "long";
  if (Array.isArray(v)) return "array";
  if (v instanceof Date) return "date";
  if (v instanceof RegExp) return "regex";
  switch (bsonTypeOf(v)) {
    case "ObjectId":
      return "objectId";
    case "Long":
      return "long";
    case "Int32":
      return "int";
    case "Double":
      return "double";
    case "Decimal128":
      return "decimal";
    case "Binary":
      return "binData";
    case "Timestamp":
      return "timestamp";
    case "BSONRegExp":
      return "regex";
    case "MinKey":
      return "minKey";
    case "MaxKey":
      return "maxKey";
    case "Code":
      return "javascript";
  }
  return "object";
}

function typeMatches(v: unknown, want: string): boolean {
  const t = bsonTypeName(v);
  if (want === "number") return t === "int" || t === "double" || t === "long" || t === "decimal";
  return t === want;
}

function typePred(a: unknown, b: unknown): boolean {
  const wants = (Array.isArray(b) ? b : [b]).map((w) => TYPE_ALIASES[String(w)] ?? String(w));
  if (a === undefined) return false;
  for (const w of wants) {
    if (typeMatches(a, w)) return true;
    if (Array.isArray(a) && a.some((e) => typeMatches(e, w))) return true;
  }
  return false;
}

function queryOp(pred: Pred) {
  return (selector: string, value: unknown, _options: Options) => {
    const depth = selector.split(".").length - 1;
    return (o: AnyObject) => pred(resolve(o, selector, { unwrapArray: true }), value, depth);
  };
}

function modPred(a: unknown, b: unknown, depth: number): boolean {
  if (!Array.isArray(b) || b.length !== 2)
    throw new Error("malformed mod, needs to be an array of two numbers");
  const d = Math.trunc(Number(b[0]));
  const r = Math.trunc(Number(b[1]));
  if (!Number.isFinite(d) || !Number.isFinite(r))
    throw new Error("malformed mod, divisor and remainder must be numbers");
  if (d === 0) throw new Error("divisor cannot be 0");
  const test = (v: unknown) => {
    const n = numericValue(v);
    return n !== undefined && Number.isFinite(n) && Math.trunc(n) % d === r;
  };
  return Array.isArray(a) ? flatten(a, depth).some(test) : test(a);
}

const overrides = {
  $mod: queryOp(modPred),
  $eq: queryOp(eq),
  $ne: queryOp((a, b, d) => !eq(a, b, d)),
  $gt: queryOp(cmp((c) => c > 0, false)),
  $gte: queryOp(cmp((c) => c >= 0, true)),
  $lt: queryOp(cmp((c) => c < 0, false)),
  $lte: queryOp(cmp((c) => c <= 0, true)),
  $in: queryOp(inPred),
  $nin: queryOp((a, b, d) => !inPred(a, b, d)),
  $type: queryOp((a, b) => typePred(a, b)),
};

type SortFn = (docs: AnyObject[], spec: [string, 1 | -1][]) => AnyObject[];
let sortImpl: SortFn | undefined;
/** query.ts registers the BSON-order sort (kept out of this module to avoid an import cycle) */
export function registerSort(fn: SortFn): void {
  sortImpl = fn;
}

const sortStage = (coll: { transform(f: (xs: AnyObject[]) => unknown): unknown }, sortKeys: AnyObject) => {
  if (!isPlainObject(sortKeys) || Object.keys(sortKeys).length === 0)
    throw new Error("$sort specification is invalid");
  const spec = Object.entries(sortKeys).map(([k, v]) => {
    if (v !== 1 && v !== -1)
      throw new Error(`$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
    return [k, v] as [string, 1 | -1];
  });
  return coll.transform((xs) => Lazy((sortImpl as SortFn)(xs, spec)));
};

/**
 * Exact sum like mongod: integers (JS numbers and Long) add up exactly as 64-bit integers and give a Long when
 * a Long took part or the total leaves the safe range; any fractional value makes the result a double. Other
 * types are ignored. (mingo's own $sum skips Long values: a silently wrong total.)
 */
export function exactSum(values: unknown[]): number | Long {
  let big = 0n;
  let float = 0;
  let sawLong = false;
  let sawFloat = false;
  for (const v of values) {
    if (typeof v === "number") {
      if (Number.isInteger(v) && Number.isSafeInteger(v)) big += BigInt(v);
      else {
        sawFloat = true;
        float += v;
      }
      continue;
    }
    const t = bsonTypeOf(v);
    if (t === "Long") {
      sawLong = true;
      big += BigInt((v as Long).toString());
    } else if (t === "Int32" || t === "Double" || t === "Decimal128") {
      const n = numericValue(v) as number;
      if (Number.isSafeInteger(n)) big += BigInt(n);
      else {
        sawFloat = true;
        float += n;
      }
    }
  }
  if (sawFloat) return Number(big) + float;
  const fitsLong = big >= -(2n ** 63n) && big < 2n ** 63n;
  if (!fitsLong) return Number(big);
  if (sawLong || big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER))
    return Long.fromBigInt(big);
  return Number(big);
}

const accumulatorSum = (coll: AnyObject[], expr: unknown, options: Options) => {
  if (typeof expr === "number") return coll.length * expr;
  return exactSum($push(coll, expr, options) as unknown[]);
};

const accumulatorAvg = (coll: AnyObject[], expr: unknown, options: Options) => {
  const nums = ($push(coll, expr, options) as unknown[])
    .map(numericValue)
    .filter((n): n is number => n !== undefined);
  if (nums.length === 0) return null;
  return nums.reduce((a, b) => a + b, 0) / nums.length;
};

/** $min / $max accumulators in BSON order (null and missing ignored) */
function extremum(sign: 1 | -1) {
  return (coll: AnyObject[], expr: unknown, options: Options) => {
    let best: unknown;
    let bestKey: string | undefined;
    for (const v of $push(coll, expr, options) as unknown[]) {
      if (v === null || v === undefined) continue;
      const k = encodeKey(v);
      if (bestKey === undefined || (sign === 1 ? k > bestKey : k < bestKey)) {
        best = v;
        bestKey = k;
      }
    }
    return bestKey === undefined ? null : best;
  };
}

/** mongod's $count emits no document at all for an empty input (mingo emits { n: 0 }) */
const countStage = (coll: { transform(f: (xs: AnyObject[]) => unknown): unknown }, field: unknown) => {
  if (typeof field !== "string" || field === "" || field.startsWith("$") || field.includes("."))
    throw new Error("the count field must be a non-empty string that does not start with $ or contain '.'");
  return coll.transform((xs) => Lazy(xs.length === 0 ? [] : [{ [field]: xs.length }]));
};

export const CONTEXT = Context.init({
  accumulator: {
    ...accumulatorOperators,
    $sum: accumulatorSum,
    $avg: accumulatorAvg,
    $min: extremum(-1),
    $max: extremum(1),
  } as never,
  expression: { ...expressionOperators, $dateToString } as never,
  pipeline: { ...pipelineOperators, $sort: sortStage, $count: countStage } as never,
  projection: projectionOperators,
  query: { ...queryOperators, ...overrides } as never,
  window: windowOperators,
});

/**
 * mingo's ComputeOptions class, which the package does not export: taken from the options a query operator is
 * called with. mingo copies every operator table of the context (hundreds of entries) for each Query or
 * Aggregator given plain options, but reuses the context of a ComputeOptions instance: that copy was ~13 % of the
 * store's CPU. Undefined if mingo ever stops passing one (then plain options are used, as before).
 */
const ComputeOptionsClass: { init(o: Partial<Options>): Options } | undefined = (() => {
  let captured: unknown;
  const probe = Context.init({
    query: {
      $captureOptions: (_s: string, _v: unknown, o: unknown) => {
        captured = o;
        return () => true;
      },
    },
  } as never);
  new QueryBase({ x: { $captureOptions: 1 } }, { context: probe });
  const cls = (captured as { constructor?: unknown } | undefined)?.constructor as
    | { init?: unknown; name?: string }
    | undefined;
  return cls && typeof cls.init === "function" && cls.name === "ComputeOptions"
    ? (cls as { init(o: Partial<Options>): Options })
    : undefined;
})();

/**
 * The options object mingo gets for `options` with this module's context: one ComputeOptions per options object
 * (keyed by identity, so a shared constant like query.ts's MINGO_OPTIONS is built once). mingo derives a fresh
 * instance from it for each Query/Aggregator (own locals: condition, $$NOW), sharing only the options and the
 * context; the context is only ever extended with operators it already holds ($fill's $ifNull,
 * $setWindowFields' $function), which does not change it.
 */
const prebuilt = new WeakMap<object, Options>();
export function withContext(options?: Partial<Options>): Partial<Options> {
  if (!ComputeOptionsClass || !options) return { ...options, context: CONTEXT };
  let built = prebuilt.get(options);
  if (!built) {
    // mingo's own defaults apply as for plain options (init fills them in)
    built = ComputeOptionsClass.init({ ...options, context: CONTEXT });
    prebuilt.set(options, built);
  }
  return built;
}

export class Query extends QueryBase {
  constructor(condition: AnyObject, options?: Partial<Options>) {
    super(condition, withContext(options));
  }
}

export class Aggregator extends AggregatorBase {
  constructor(pipeline: AnyObject[], options?: Partial<Options>) {
    super(pipeline, withContext(options));
  }
}
