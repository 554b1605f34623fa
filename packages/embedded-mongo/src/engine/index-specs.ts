/**
 * Index definitions: validating createIndexes specs, adding them to a collection (with MongoDB's conflict rules:
 * same name, same key pattern) and resolving what dropIndexes names.
 */
import type { Document } from "bson";
import type { Collection, Index } from "./collection";
import {
  badValue,
  cannotCreateIndex,
  indexKeySpecsConflict,
  indexNotFound,
  indexOptionsConflict,
  invalidOptions,
} from "./errors";
import { encodeKey, isPlainObject } from "./keys";
import type { IndexSpec } from "./types";

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  const pick = (s: IndexSpec) =>
    encodeKey({
      unique: s.unique === true,
      sparse: s.sparse === true,
      partial: s.partialFilterExpression ?? null,
      ttl: s.expireAfterSeconds ?? null,
      collation: s.collation ?? null,
    });
  return pick(a) === pick(b);
}

/** stable text of an index key pattern (1 and 1.0 alike) */
function keyText(key: Document): string {
  return encodeKey(key);
}

/** Validates and normalizes the specs of a createIndexes command (all of them, before any is created). */
export function normalizeIndexSpecs(specs: IndexSpec[]): IndexSpec[] {
  if (!Array.isArray(specs) || specs.length === 0)
    throw badValue("Must specify at least one index to create");
  // validate everything before creating anything
  const normalized: IndexSpec[] = [];
  for (const raw of specs) {
    if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0)
      throw cannotCreateIndex("Index keys cannot be empty.");
    if (typeof raw.name !== "string" || raw.name === "")
      throw cannotCreateIndex(
        `Error in specification ${JSON.stringify(raw)} :: caused by :: The index name cannot be empty`,
      );
    for (const [field, dir] of Object.entries(raw.key)) {
      if (dir === "text")
        throw cannotCreateIndex(
          `text indexes are not supported by the embedded store (index ${raw.name}); use the knowledge search service instead`,
        );
      if (typeof dir === "string")
        throw cannotCreateIndex(
          `'${dir}' indexes are not supported by the embedded store (index ${raw.name})`,
        );
      if (typeof dir !== "number" || (dir as number) === 0 || Number.isNaN(dir))
        throw cannotCreateIndex(`Values in the index key pattern can only be 1 or -1 (field ${field})`);
    }
    if (raw.expireAfterSeconds !== undefined) {
      const s = Number(raw.expireAfterSeconds);
      if (!Number.isFinite(s) || s < 0)
        throw cannotCreateIndex(
          `TTL index 'expireAfterSeconds' option must be a non-negative number, got ${String(raw.expireAfterSeconds)}`,
        );
    }
    if (raw.collation !== undefined && !(isPlainObject(raw.collation) && raw.collation.locale === "simple"))
      throw cannotCreateIndex(
        `index ${raw.name}: collations other than { locale: "simple" } are not supported by the embedded store (keys compare binary)`,
      );
    if (raw.partialFilterExpression !== undefined && !isPlainObject(raw.partialFilterExpression))
      throw cannotCreateIndex("partialFilterExpression must be an object");
    const { v: _v, ns: _ns, key, name, ...rest } = raw as IndexSpec & { v?: unknown; ns?: unknown };
    const spec: IndexSpec = { v: 2, key: { ...key }, name, ...rest };
    if (spec.name === "_id_" && keyText(spec.key) !== keyText({ _id: 1 }))
      throw indexKeySpecsConflict("The index name '_id_' is reserved for the _id index");
    normalized.push(spec);
  }
  return normalized;
}

/** creates the indexes that do not exist yet, in order; pushes each created spec to `added` */
export function buildIndexes(c: Collection, normalized: IndexSpec[], added: IndexSpec[]): void {
  for (const spec of normalized) {
    const byName = c.indexes.get(spec.name);
    if (byName) {
      if (keyText(byName.spec.key) !== keyText(spec.key))
        throw indexKeySpecsConflict(
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
        );
      if (!byName.isId && !sameOptions(byName.spec, spec))
        throw indexOptionsConflict(
          `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(byName.spec)}`,
        );
      continue;
    }
    let sameKey: Index | undefined;
    for (const idx of c.indexes.values()) if (keyText(idx.spec.key) === keyText(spec.key)) sameKey = idx;
    if (
      sameKey &&
      encodeKey(sameKey.spec.partialFilterExpression ?? null) ===
        encodeKey(spec.partialFilterExpression ?? null)
    ) {
      throw indexOptionsConflict(
        sameOptions(sameKey.spec, spec)
          ? `Index already exists with a different name: ${sameKey.spec.name}`
          : `An existing index has the same key pattern but different options: requested ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKey.spec)}`,
      );
    }
    c.addIndex(spec);
    added.push(spec);
  }
}

/** The names a dropIndexes command drops ("*", a name, names or a key pattern); all must exist. */
export function indexNamesToDrop(c: Collection, index: string | string[] | Document): string[] {
  let names: string[];
  if (index === "*") names = [...c.indexes.keys()].filter((n) => n !== "_id_");
  else if (typeof index === "string") names = [index];
  else if (Array.isArray(index)) names = index.map(String);
  else if (isPlainObject(index)) {
    const found = [...c.indexes.values()].find((i) => keyText(i.spec.key) === keyText(index));
    if (!found) throw indexNotFound(`can't find index with key: ${JSON.stringify(index)}`);
    names = [found.spec.name];
  } else throw badValue("dropIndexes: index must be a string, an array of strings or a key pattern");
  for (const n of names) {
    if (n === "_id_") throw invalidOptions("cannot drop _id index");
    if (!c.indexes.has(n)) throw indexNotFound(`index not found with name [${n}]`);
  }
  return names;
}
