/**
 * Applying updates to one document: operator documents (through mingo's updater, with MongoDB's validation in
 * front of it), replacement documents and pipeline updates; and building the base document of an upsert.
 * The input document is never modified: a changed copy is returned.
 */
import { type Document, ObjectId, Timestamp } from "bson";
import { update as mingoUpdate } from "mingo/updater";
import {
  badValue,
  conflictingUpdate,
  failedToParse,
  immutableField,
  location,
  pathNotViable,
  typeMismatch,
} from "./errors";
import {
  bsonTypeOf,
  compareValues,
  deepClone,
  encodeKey,
  formatValue,
  getPath,
  isPlainObject,
  normalizeNumbers,
  numericValue,
  setPath,
} from "./keys";
import { Aggregator } from "./mingo-context";
import { MINGO_OPTIONS, mapMingoError, rejectJavaScript } from "./query";
import { StoreError } from "./types";
import { fastUpdate } from "./update-fast";

const OPERATORS = new Set([
  "$set",
  "$unset",
  "$inc",
  "$mul",
  "$min",
  "$max",
  "$rename",
  "$setOnInsert",
  "$currentDate",
  "$push",
  "$addToSet",
  "$pop",
  "$pull",
  "$pullAll",
  "$bit",
]);

const PIPELINE_STAGES = new Set(["$addFields", "$set", "$project", "$unset", "$replaceRoot", "$replaceWith"]);

export type UpdateKind = "operators" | "replacement" | "pipeline";

export interface PreparedUpdate {
  kind: UpdateKind;
  /** operators without $setOnInsert / a replacement / pipeline */
  update: Document | Document[];
  setOnInsert?: Document;
  hasPositional: boolean;
}

/** Validates an update once per statement (operator names, path conflicts) */
export function prepareUpdate(u: Document | Document[]): PreparedUpdate {
  if (Array.isArray(u)) {
    rejectJavaScript(u);
    for (const stage of u) {
      const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!name || !PIPELINE_STAGES.has(name))
        throw location(72, `${name ?? "?"} is not allowed to be used within an update`);
    }
    return { kind: "pipeline", update: u, hasPositional: false };
  }
  if (!isPlainObject(u)) throw failedToParse("Update document must be an object");
  const keys = Object.keys(u);
  if (keys.length === 0 || !keys[0].startsWith("$")) {
    for (const k of keys)
      if (k.startsWith("$"))
        throw badValue(
          `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in a replacement document`,
        );
    return { kind: "replacement", update: u, hasPositional: false };
  }
  const paths: string[] = [];
  let hasPositional = false;
  let setOnInsert: Document | undefined;
  const ops: Document = {};
  for (const op of keys) {
    if (!OPERATORS.has(op))
      throw failedToParse(
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    const arg = u[op];
    if (!isPlainObject(arg))
      throw failedToParse(
        `Modifiers operate on fields but we found type ${typeName(arg)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${formatValue(arg)}}`,
      );
    for (const path of Object.keys(arg)) {
      if (path === "") throw location(56, "An empty update path is not valid.");
      if (path.split(".").some((p) => p === ""))
        throw location(56, `The update path '${path}' contains an empty field name, which is not allowed.`);
      if (path.includes("$")) hasPositional = true;
      paths.push(path);
      if (op === "$rename") {
        const to = arg[path];
        if (typeof to !== "string")
          throw badValue(`The 'to' field for $rename must be a string: ${path}: ${formatValue(to)}`);
        if (to === path)
          throw badValue(`The source and target field for $rename must differ: ${path}: ${formatValue(to)}`);
        paths.push(to);
      }
      if (op === "$inc" || op === "$mul") {
        if (numericValue(arg[path]) === undefined)
          throw typeMismatch(
            `Cannot ${op === "$inc" ? "increment" : "multiply"} with non-numeric argument: {${path}: ${formatValue(arg[path])}}`,
          );
      }
    }
    if (op === "$setOnInsert") setOnInsert = arg;
    else if (op === "$currentDate") {
      const set: Document = {};
      for (const path of Object.keys(arg)) {
        const spec = arg[path];
        const type = isPlainObject(spec) ? spec.$type : "date";
        if (spec !== true && !(isPlainObject(spec) && (type === "date" || type === "timestamp")))
          throw badValue(
            `${formatValue(spec)} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
          );
        set[path] = type === "timestamp" ? "__ts__" : "__date__";
      }
      ops.$currentDate = set;
    } else ops[op] = arg;
  }
  checkConflicts(paths);
  return { kind: "operators", update: ops, setOnInsert, hasPositional };
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "string") return "string";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "double";
  if (typeof v === "boolean") return "bool";
  if (v instanceof Date) return "date";
  const bt = bsonTypeOf(v);
  if (bt) return bt === "ObjectId" ? "objectId" : bt.toLowerCase();
  return "object";
}

function checkConflicts(paths: string[]): void {
  const sorted = paths.map((p) => p.split("."));
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i];
      const b = sorted[j];
      const n = Math.min(a.length, b.length);
      let same = true;
      for (let k = 0; k < n; k++)
        if (a[k] !== b[k]) {
          same = false;
          break;
        }
      if (same)
        throw conflictingUpdate(
          `Updating the path '${paths[j]}' would create a conflict at '${a.slice(0, n).join(".")}'`,
        );
    }
  }
}

/** type checks mongod does and mingo silently skips */
function precheck(doc: Document, ops: Document): void {
  const idText = () => `{_id: ${formatValue(doc._id)}}`;
  for (const op of Object.keys(ops)) {
    const arg = ops[op] as Document;
    for (const path of Object.keys(arg)) {
      const arrayUpdate = path.indexOf(".$[");
      if (arrayUpdate > 0 && !path.slice(0, arrayUpdate).includes("$")) {
        const prefix = path.slice(0, arrayUpdate);
        const v = getPath(doc, prefix);
        if (v === undefined || v === null)
          throw badValue(`The path '${prefix}' must exist in the document in order to apply array updates.`);
        if (!Array.isArray(v))
          throw badValue(
            `Cannot apply array updates to non-array element ${prefix.split(".").pop()}: ${formatValue(v)}`,
          );
      }
      if (path.includes("$")) continue;
      const parts = path.split(".");
      let cur: unknown = doc;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        if (cur === undefined) break;
        if (Array.isArray(cur)) {
          if (!/^\d+$/.test(part)) {
            if (op === "$unset" || op === "$pull" || op === "$pullAll" || op === "$pop") break;
            throw pathNotViable(
              `Cannot create field '${part}' in element {${parts[i - 1] ?? ""}: ${formatValue(cur)}}`,
            );
          }
          cur = cur[Number(part)];
          continue;
        }
        if (!isPlainObject(cur)) {
          if (op === "$unset" || op === "$pull" || op === "$pullAll" || op === "$pop" || op === "$rename")
            break;
          throw pathNotViable(
            `Cannot create field '${part}' in element {${parts[i - 1]}: ${formatValue(cur)}}`,
          );
        }
        const next = cur[part];
        if (i === parts.length - 1) {
          if (next === undefined) break;
          if (
            (op === "$inc" || op === "$mul") &&
            typeof next === "object" &&
            next !== null &&
            numericValue(next) !== undefined
          )
            throw badValue(
              `${op} on a ${typeName(next)} value (field '${path}') is not supported by the embedded store`,
            );
          if ((op === "$inc" || op === "$mul") && numericValue(next) === undefined)
            throw typeMismatch(
              `Cannot apply ${op} to a value of non-numeric type. ${idText()} has the field '${part}' of non-numeric type ${typeName(next)}`,
            );
          if (
            (op === "$push" || op === "$addToSet" || op === "$pop" || op === "$pull" || op === "$pullAll") &&
            !Array.isArray(next)
          ) {
            if (op === "$pull" || op === "$pullAll") {
              if (op === "$pullAll") break;
              throw badValue(`Cannot apply $pull to a non-array value`);
            }
            throw badValue(
              `The field '${path}' must be an array but is of type ${typeName(next)} in document ${idText()}`,
            );
          }
        }
        cur = next;
      }
    }
  }
}

function materialize(ops: Document, now: Date): Document {
  if (!ops.$currentDate) return ops;
  const out: Document = { ...ops };
  const set: Document = {};
  for (const [p, t] of Object.entries(ops.$currentDate as Document))
    set[p] =
      t === "__ts__" ? new Timestamp({ t: Math.floor(now.getTime() / 1000), i: 1 }) : new Date(now.getTime());
  delete out.$currentDate;
  out.$set = { ...(out.$set as Document | undefined), ...set };
  return out;
}

/** numbers wrapped by bson (Int32, Double) would confuse mingo's arithmetic; Long keeps its class when unsafe */
function normalizeOps(ops: Document): Document {
  return normalizeNumbers(ops);
}

/**
 * Applies a prepared update to a copy of `doc`; returns the new document (same object identity as nothing
 * when unchanged is not guaranteed — compare with `modified`).
 */
export function applyUpdate(
  doc: Document,
  prepared: PreparedUpdate,
  opts: { arrayFilters?: Document[]; query?: Document; insert?: boolean },
): { doc: Document; modified: boolean } {
  const oldId = doc._id;
  let out: Document;
  if (prepared.kind === "replacement") {
    const repl = prepared.update as Document;
    if ("_id" in repl && repl._id !== undefined && encodeKey(repl._id) !== encodeKey(oldId) && !opts.insert)
      throw immutableField(
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(repl._id)}`,
      );
    out = { _id: oldId === undefined ? repl._id : oldId };
    for (const k of Object.keys(repl)) if (k !== "_id") out[k] = repl[k];
    if (out._id === undefined) delete out._id;
  } else if (prepared.kind === "pipeline") {
    try {
      const res = new Aggregator(prepared.update as Document[], MINGO_OPTIONS).run([deepClone(doc)]);
      out = res[0] ?? {};
    } catch (e) {
      throw mapMingoError(e, "aggregate");
    }
    if (oldId !== undefined) {
      if (!("_id" in out)) out = { _id: oldId, ...out };
      else if (encodeKey(out._id) !== encodeKey(oldId))
        throw immutableField(
          `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(out._id)}`,
        );
    }
  } else {
    out = deepClone(doc);
    let ops = materialize(prepared.update as Document, new Date());
    if (opts.insert && prepared.setOnInsert)
      ops = { ...ops, $set: { ...(ops.$set as Document | undefined), ...prepared.setOnInsert } };
    ops = normalizeOps(ops);
    ops = stripIdPaths(out, ops, oldId, opts.insert === true);
    if (Object.keys(ops).length === 0)
      return opts.insert ? { doc: out, modified: true } : { doc, modified: false };
    precheck(out, ops);
    ops = resolveMinMax(out, ops);
    if (
      prepared.hasPositional &&
      opts.insert &&
      Object.keys(ops).some((op) => Object.keys(ops[op]).some((p) => /(^|\.)\$(\.|$)/.test(p)))
    )
      throw badValue("The positional operator did not find the match needed from the query.");
    // $set/$unset/$inc on plain paths without mingo (update-fast.ts); anything else through mingo's updater
    const fast = prepared.hasPositional || opts.arrayFilters?.length ? undefined : fastUpdate(out, ops);
    const changed = fast ?? mingoUpdateIn(out, ops, prepared, opts).length > 0;
    if (!changed && !opts.insert) return { doc, modified: false };
    if (oldId !== undefined && (!("_id" in out) || encodeKey(out._id) !== encodeKey(oldId)))
      throw immutableField("Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  const modified = opts.insert === true || encodeKey(out) !== encodeKey(doc);
  return { doc: modified ? out : doc, modified };
}

/** mingo's updater on `out` (modified in place): the paths it changed */
function mingoUpdateIn(
  out: Document,
  ops: Document,
  prepared: PreparedUpdate,
  opts: { arrayFilters?: Document[]; query?: Document },
): string[] {
  try {
    return mingoUpdate(
      out,
      ops,
      opts.arrayFilters ? normalizeNumbers(opts.arrayFilters) : undefined,
      prepared.hasPositional && opts.query ? normalizeNumbers(opts.query) : undefined,
      {
        cloneMode: "copy",
        queryOptions: MINGO_OPTIONS,
      },
    );
  } catch (e) {
    throw mapUpdateError(e);
  }
}

/** $min/$max on plain paths compared in BSON order (mingo's order is wrong across bson classes): become $set or nothing */
function resolveMinMax(doc: Document, ops: Document): Document {
  if (!ops.$min && !ops.$max) return ops;
  const out: Document = { ...ops };
  const set: Document = { ...(ops.$set as Document | undefined) };
  for (const op of ["$min", "$max"] as const) {
    const arg = ops[op] as Document | undefined;
    if (!arg) continue;
    const rest: Document = {};
    for (const path of Object.keys(arg)) {
      if (path.includes("$")) {
        rest[path] = arg[path];
        continue;
      }
      const current = getPath(doc, path);
      const c = current === undefined ? 0 : compareValues(arg[path], current);
      if (current === undefined || (op === "$min" ? c < 0 : c > 0)) set[path] = arg[path];
    }
    if (Object.keys(rest).length > 0) out[op] = rest;
    else delete out[op];
  }
  if (Object.keys(set).length > 0) out.$set = set;
  return out;
}

/**
 * mingo refuses any update of the id key; mongod allows setting _id to its current value (and any value when an
 * upsert inserts). Handles those paths here and returns the remaining operators.
 */
function stripIdPaths(out: Document, ops: Document, oldId: unknown, insert: boolean): Document {
  let result: Document | undefined;
  for (const op of Object.keys(ops)) {
    const arg = ops[op] as Document;
    for (const path of Object.keys(arg)) {
      if (path !== "_id" && !path.startsWith("_id.")) continue;
      const sameValue =
        op === "$set" && path === "_id" && oldId !== undefined && encodeKey(arg[path]) === encodeKey(oldId);
      if (!sameValue && !(insert && oldId === undefined && op === "$set"))
        throw immutableField("Performing an update on the path '_id' would modify the immutable field '_id'");
      if (!sameValue) setPath(out, path, arg[path]);
      result ??= { ...ops };
      const rest = { ...(result[op] as Document) };
      delete rest[path];
      if (Object.keys(rest).length === 0) delete result[op];
      else result[op] = rest;
    }
  }
  return result ?? ops;
}

function mapUpdateError(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  if (/conflict/.test(msg)) return conflictingUpdate(msg);
  if (/arrayFilter|identifier/i.test(msg)) return failedToParse(msg);
  return mapMingoError(e, "update");
}

/**
 * The base document of an upsert: the equality conditions of the query ({f: v}, {f: {$eq: v}}, $and of those).
 */
export function upsertBase(query: Document | undefined): Document {
  const out: Document = {};
  if (!query) return out;
  const visit = (q: Document) => {
    for (const k of Object.keys(q)) {
      const v = q[k];
      if (k === "$and" && Array.isArray(v)) {
        for (const c of v) if (isPlainObject(c)) visit(c);
        continue;
      }
      if (k.startsWith("$")) continue;
      if (isPlainObject(v) && Object.keys(v).length > 0 && Object.keys(v)[0].startsWith("$")) {
        if ("$eq" in v) setPath(out, k, deepClone(v.$eq));
        continue;
      }
      if (v instanceof RegExp) continue;
      setPath(out, k, deepClone(v));
    }
  };
  visit(query);
  return out;
}

/** Makes sure a new document has an _id and that it comes first. */
export function withId(doc: Document): Document {
  if (doc._id !== undefined) {
    if (Object.keys(doc)[0] === "_id") return doc;
    const { _id, ...rest } = doc;
    return { _id, ...rest };
  }
  const { _id, ...rest } = doc;
  return { _id: new ObjectId(), ...rest };
}

/** Validates a document id the way mongod does (no arrays, no regexes, no undefined). */
export function checkId(id: unknown): void {
  if (Array.isArray(id)) throw badValue(`The '_id' value cannot be of type array`);
  if (id instanceof RegExp) throw badValue(`The '_id' value cannot be of type regex`);
}

/** mongod's checks of arrayFilters against the $[<identifier>] paths of an update */
export function checkArrayFilters(prepared: PreparedUpdate, arrayFilters: Document[] | undefined): void {
  // no $[<identifier>] path (it needs a "$") and no filters: nothing to check
  if (!prepared.hasPositional && (arrayFilters === undefined || arrayFilters.length === 0)) return;
  const used = new Map<string, string>();
  if (prepared.kind === "operators") {
    const ops = {
      ...(prepared.update as Document),
      ...(prepared.setOnInsert ? { $setOnInsert: prepared.setOnInsert } : {}),
    };
    for (const arg of Object.values(ops)) {
      for (const path of Object.keys(arg as Document)) {
        for (const m of path.matchAll(/\$\[([^\]]+)\]/g)) used.set(m[1], path);
      }
    }
  }
  const declared = new Set<string>();
  for (const f of arrayFilters ?? []) {
    if (!isPlainObject(f)) throw failedToParse("arrayFilters must be an array of objects");
    const names = new Set(Object.keys(f).map((k) => k.split(".")[0]));
    if (names.size !== 1)
      throw failedToParse(
        `Error parsing array filter :: caused by :: Expected a single top-level field name, found ${[...names].map((n) => `'${n}'`).join(" and ") || "none"}`,
      );
    const [name] = names;
    if (declared.has(name))
      throw failedToParse(`Found multiple array filters with the same top-level field name ${name}`);
    declared.add(name);
  }
  for (const [id, path] of used) {
    if (!declared.has(id)) throw badValue(`No array filter found for identifier '${id}' in path '${path}'`);
  }
  for (const id of declared) {
    if (!used.has(id))
      throw failedToParse(
        `The array filter for identifier '${id}' was not used in the update ${formatValue(prepared.update)}`,
      );
  }
}
