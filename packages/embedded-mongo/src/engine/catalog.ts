/**
 * The in-memory catalog: databases by name, each a map of collections by name. The engine runs commands on it;
 * recovery (recovery.ts) rebuilds it from records and compaction (compaction.ts) captures it as records.
 */
import { randomUUID } from "node:crypto";
import { Binary, calculateObjectSize, type Document } from "bson";
import { Collection } from "./collection";
import { invalidNamespace, invalidOptions } from "./errors";
import { isPlainObject } from "./keys";

/**
 * Sizes already measured, by document: a stored document is never modified in place (the engine replaces it), so
 * its size is measured when it is stored and read back when it is replaced or removed.
 */
const sizes = new WeakMap<Document, number>();

/** a document's size as the store counts it (dataSize, collStats); the document must not change afterwards */
export function docSize(doc: Document): number {
  let size = sizes.get(doc);
  if (size === undefined) {
    size = calculateObjectSize(doc, { ignoreUndefined: true });
    sizes.set(doc, size);
  }
  return size;
}

/** collection options the store does not implement: refused by name rather than silently ignored */
const UNSUPPORTED_COLLECTION_OPTIONS = [
  "capped",
  "viewOn",
  "pipeline",
  "timeseries",
  "clusteredIndex",
  "validator",
  "changeStreamPreAndPostImages",
];

/** MongoDB's database name rules (InvalidNamespace) */
export function checkDbName(db: string): void {
  if (!db || /[/\\. "$\0]/.test(db) || db.length > 63)
    throw invalidNamespace(`Invalid database name: '${db}'`);
}

/** MongoDB's collection name rules (InvalidNamespace) */
export function checkCollName(db: string, name: string): void {
  if (typeof name !== "string" || name.length === 0)
    throw invalidNamespace(`Invalid namespace specified '${db}.'`);
  if (name.includes("$") || name.includes("\0") || name.startsWith("."))
    throw invalidNamespace(`Invalid collection name: ${name}`);
}

/** refuses the collection options the store does not implement */
export function checkCollectionOptions(options: Document): void {
  for (const k of UNSUPPORTED_COLLECTION_OPTIONS) {
    if (options[k] !== undefined && options[k] !== false)
      throw invalidOptions(`The collection option '${k}' is not supported by the embedded store`);
  }
  if (
    options.collation !== undefined &&
    !(isPlainObject(options.collation) && options.collation.locale === "simple")
  )
    throw invalidOptions(
      `collations other than { locale: "simple" } are not supported by the embedded store`,
    );
}

export class Catalog {
  readonly dbs = new Map<string, Map<string, Collection>>();

  /** the collections of `db`, created (empty) when missing */
  database(db: string): Map<string, Collection> {
    let m = this.dbs.get(db);
    if (!m) {
      m = new Map();
      this.dbs.set(db, m);
    }
    return m;
  }

  coll(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** adds a collection (a new UUID unless recovery hands the stored one) */
  newCollection(db: string, name: string, options: Document, uuid?: unknown): Collection {
    const c = new Collection(
      db,
      name,
      options,
      uuid ?? new Binary(Buffer.from(randomUUID().replace(/-/g, ""), "hex"), 4),
    );
    this.database(db).set(name, c);
    return c;
  }
}
