/** Argument checks shared by the command handlers, with mongod's error codes and messages. */
import { type Document, Long } from "bson";
import { commandError } from "../errors";

/** mongod's name for the BSON type of a value, for TypeMismatch messages. */
export function bsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number")
    return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? "int" : "double";
  if (typeof value === "bigint" || value instanceof Long) return "long";
  if (value instanceof Date) return "date";
  if (value instanceof RegExp) return "regex";
  const bsontype = (value as { _bsontype?: string })._bsontype;
  if (bsontype) return bsontype.toLowerCase();
  return "object";
}

export function isPlainDocument(value: unknown): value is Document {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof RegExp) &&
    (value as { _bsontype?: string })._bsontype === undefined
  );
}

/** The collection named by the command's first field (e.g. `find: "users"`). */
export function collectionArg(db: string, cmd: Document, field: string): string {
  const value = cmd[field];
  if (typeof value !== "string")
    throw commandError(73, `collection name has invalid type ${bsonTypeName(value)}`);
  if (value === "" || value.includes("\0") || value.startsWith(".") || value.startsWith("$")) {
    throw commandError(73, `Invalid namespace specified '${db}.${value}'`);
  }
  return value;
}

/** An optional sub-document argument (filter, sort, projection, ...). */
export function docArg(cmd: Document, field: string, command: string): Document | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainDocument(value)) {
    throw commandError(
      14,
      `BSON field '${command}.${field}' is the wrong type '${bsonTypeName(value)}', expected type 'object'`,
    );
  }
  return value;
}

/** A required array argument (documents, updates, deletes, pipeline, indexes). */
export function arrayArg(cmd: Document, field: string, command: string): unknown[] {
  const value = cmd[field];
  if (value === undefined)
    throw commandError(40414, `BSON field '${command}.${field}' is missing but a required field`);
  if (!Array.isArray(value)) {
    throw commandError(
      14,
      `BSON field '${command}.${field}' is the wrong type '${bsonTypeName(value)}', expected type 'array'`,
    );
  }
  return value;
}

export function boolArg(cmd: Document, field: string, defaultValue: boolean): boolean {
  const value = cmd[field];
  if (value === undefined || value === null) return defaultValue;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  throw commandError(
    14,
    `BSON field '${field}' is the wrong type '${bsonTypeName(value)}', expected type 'bool'`,
  );
}

/** An optional integer argument (skip, limit, batchSize); `allowNegative` keeps the sign for legacy limits. */
export function intArg(
  cmd: Document,
  field: string,
  command: string,
  allowNegative = false,
): number | undefined {
  const raw = cmd[field];
  if (raw === undefined || raw === null) return undefined;
  const value = raw instanceof Long ? raw.toNumber() : typeof raw === "bigint" ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw commandError(
      14,
      `BSON field '${command}.${field}' is the wrong type '${bsonTypeName(raw)}', expected types '[long, int, decimal, double']`,
    );
  }
  const n = Math.trunc(value);
  if (n < 0 && !allowNegative) {
    throw commandError(51024, `BSON field '${field}' value must be >= 0, actual value '${n}'`);
  }
  return n;
}
