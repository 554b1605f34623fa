/**
 * A validator for the common $jsonSchema keywords, for mingo's jsonSchemaValidator option. Keywords outside the
 * supported set are refused with a clear error rather than ignored.
 */
import type { Document } from "bson";
import { badValue } from "./errors";
import { encodeKey, isPlainObject, numericValue } from "./keys";
import { bsonTypeName } from "./mingo-context";

const SUPPORTED = new Set([
  "bsonType",
  "type",
  "required",
  "properties",
  "additionalProperties",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "enum",
  "pattern",
  "minLength",
  "maxLength",
  "items",
  "minItems",
  "maxItems",
  "title",
  "description",
]);

const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  object: (v) => isPlainObject(v),
  array: Array.isArray,
  string: (v) => typeof v === "string",
  number: (v) => numericValue(v) !== undefined,
  integer: (v) => Number.isInteger(numericValue(v) ?? Number.NaN),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
};

function bsonTypeOk(v: unknown, t: string): boolean {
  if (t === "number") return numericValue(v) !== undefined;
  return bsonTypeName(v) === t;
}

type Check = (v: unknown) => boolean;

function compile(schema: unknown): Check {
  if (!isPlainObject(schema)) throw badValue("$jsonSchema must be an object");
  for (const k of Object.keys(schema))
    if (!SUPPORTED.has(k))
      throw badValue(`$jsonSchema keyword '${k}' is not supported by the embedded store`);
  const checks: Check[] = [];
  const s = schema as Document;
  if (s.bsonType !== undefined) {
    const types = (Array.isArray(s.bsonType) ? s.bsonType : [s.bsonType]) as string[];
    checks.push((v) => types.some((t) => bsonTypeOk(v, t)));
  }
  if (s.type !== undefined) {
    const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
    for (const t of types) if (!JSON_TYPES[t]) throw badValue(`$jsonSchema type '${t}' is not supported`);
    checks.push((v) => types.some((t) => JSON_TYPES[t](v)));
  }
  const num = (v: unknown) => numericValue(v);
  if (s.minimum !== undefined) {
    const m = num(s.minimum) as number;
    const ex = s.exclusiveMinimum === true;
    checks.push((v) => num(v) === undefined || (ex ? (num(v) as number) > m : (num(v) as number) >= m));
  }
  if (s.maximum !== undefined) {
    const m = num(s.maximum) as number;
    const ex = s.exclusiveMaximum === true;
    checks.push((v) => num(v) === undefined || (ex ? (num(v) as number) < m : (num(v) as number) <= m));
  }
  if (s.enum !== undefined) {
    const allowed = new Set((s.enum as unknown[]).map((e) => encodeKey(e)));
    checks.push((v) => allowed.has(encodeKey(v)));
  }
  if (s.pattern !== undefined) {
    const re = new RegExp(String(s.pattern), "u");
    checks.push((v) => typeof v !== "string" || re.test(v));
  }
  if (s.minLength !== undefined)
    checks.push((v) => typeof v !== "string" || [...v].length >= Number(s.minLength));
  if (s.maxLength !== undefined)
    checks.push((v) => typeof v !== "string" || [...v].length <= Number(s.maxLength));
  if (s.minItems !== undefined) checks.push((v) => !Array.isArray(v) || v.length >= Number(s.minItems));
  if (s.maxItems !== undefined) checks.push((v) => !Array.isArray(v) || v.length <= Number(s.maxItems));
  if (s.items !== undefined) {
    const item = compile(s.items);
    checks.push((v) => !Array.isArray(v) || v.every(item));
  }
  if (s.required !== undefined) {
    const req = s.required as string[];
    checks.push((v) => !isPlainObject(v) || req.every((k) => Object.hasOwn(v, k)));
  }
  const props: [string, Check][] = isPlainObject(s.properties)
    ? Object.entries(s.properties as Document).map(([k, sub]) => [k, compile(sub)])
    : [];
  if (props.length > 0)
    checks.push((v) => !isPlainObject(v) || props.every(([k, c]) => !Object.hasOwn(v, k) || c(v[k])));
  if (s.additionalProperties === false) {
    const known = new Set(props.map(([k]) => k));
    checks.push((v) => !isPlainObject(v) || Object.keys(v).every((k) => known.has(k)));
  } else if (s.additionalProperties !== undefined && s.additionalProperties !== true)
    throw badValue("$jsonSchema additionalProperties must be a boolean in the embedded store");
  return (v) => checks.every((c) => c(v));
}

/** mingo's jsonSchemaValidator: compiles a schema into a document predicate */
export function jsonSchemaValidator(schema: Document): (doc: Document) => boolean {
  return compile(schema);
}
