/**
 * Never trust the client: request bodies and query strings are checked for shape before any service sees
 * them. Only strings where strings are expected; an operator object like {"$ne": null} is a 400 and never
 * reaches a query.
 */
import { Errors } from "../errors";

/** No single text field of this API needs more; services apply tighter limits per field. */
export const MAX_FIELD_LENGTH = 10_000;

type FieldKind = "string" | "string?" | "boolean?";
type Spec = Record<string, FieldKind>;
type Out<S extends Spec> = {
  [K in keyof S]: S[K] extends "string"
    ? string
    : S[K] extends "string?"
      ? string | undefined
      : boolean | undefined;
};

function checkString(field: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw Errors.invalidField(field, "rest.fieldNotText", { field });
  if (v.length > MAX_FIELD_LENGTH) throw Errors.invalidField(field, "rest.fieldTooLong", { field });
  return v;
}

/**
 * Read a JSON body by spec. A required string that is missing reads as "" so the service answers with its
 * own Danish field message ('Password er påkrævet'); a value of the wrong type is refused here.
 * Fields not in the spec are ignored (e.g. a userId where the signed-in user is meant).
 */
export function readBody<S extends Spec>(body: unknown, spec: S): Out<S> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw Errors.badInput("rest.notObject");
  const src = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(spec)) {
    const v = src[field];
    if (kind === "boolean?") {
      if (v !== undefined && typeof v !== "boolean") {
        throw Errors.invalidField(field, "rest.fieldNotBoolean", { field });
      }
      out[field] = v;
    } else {
      const s = checkString(field, v === null && kind === "string?" ? undefined : v);
      out[field] = kind === "string" ? (s ?? "") : s;
    }
  }
  return out as Out<S>;
}

/** One query-string parameter as a string (arrays and nested objects refused). */
export function readQueryString(query: unknown, name: string): string | undefined {
  const v = (query as Record<string, unknown> | undefined)?.[name];
  return checkString(name, v);
}
