/**
 * One orama database as plain data and back, for the persisted index (search.persist.ts). orama's own
 * save()/load() write every radix node as a JSON object with its documents as a JSON array and the documents
 * themselves: ~150 MB of JSON at 20,000 articles, 5 s to parse and load. Here the tree's labels go to JSON
 * and its numbers (flags, child counts, document ids, field lengths) to one Int32Array, and the documents are
 * not written at all: orama needs one only to remove the document's words again, so after a restore the
 * caller puts it back just before removing it (search.orama.ts removeDoc()).
 *
 * A restored word's documents stay in an Int32Array (PostingSet, search.postings.ts): at first a view of the file's
 * integers, and still an array after an edit adds or removes a document, never a Set.
 *
 * Tied to orama's internal layout (3.1.18, as search.scorer.ts is): the persisted index's format key includes
 * orama's version, so an upgrade rebuilds instead of loading a layout it does not understand.
 */
import type { AnyOrama } from "@orama/orama";
import { radix } from "@orama/orama/trees";
import { PostingSet } from "./search.postings";

type Node = radix.RadixNode;

interface IndexData {
  indexes: Record<string, { type: string; node: Node; isArray: boolean }>;
  tokenOccurrences: Record<string, Record<string, number>>;
  fieldLengths: Record<string, Record<number, number | undefined>>;
  avgFieldLength: Record<string, number | undefined>;
  frequencies: Record<string, Record<number, unknown>>;
}

/** A growing list of 32-bit integers (written), or a cursor over one (read). */
export class Ints {
  private buf: Int32Array;
  length = 0;
  private pos = 0;

  constructor(from?: Int32Array) {
    this.buf = from ?? new Int32Array(1 << 16);
    if (from) this.length = from.length;
  }

  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Int32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }

  next(): number {
    if (this.pos >= this.length) throw new Error("persisted index: integer stream ends early");
    return this.buf[this.pos++];
  }

  /** The next n integers (a view, not a copy). */
  take(n: number): Int32Array {
    if (!(n >= 0) || this.pos + n > this.length)
      throw new Error("persisted index: integer stream ends early");
    this.pos += n;
    return this.buf.subarray(this.pos - n, this.pos);
  }

  pushAll(values: Int32Array): void {
    while (this.length + values.length > this.buf.length) {
      const next = new Int32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf.set(values, this.length);
    this.length += values.length;
  }

  get done(): boolean {
    return this.pos === this.length;
  }

  view(): Int32Array {
    return this.buf.subarray(0, this.length);
  }
}

/** What a database is written as (besides its integers). */
export interface DbDump {
  /** orama internal id - 1 → our id (ids of removed documents stay: orama never reuses them) */
  ids: string[];
  /** per field: the radix nodes' keys and labels, in pre-order */
  trees: Record<string, { keys: string[]; labels: string[] }>;
  tokenOccurrences: Record<string, Record<string, number>>;
  avgFieldLength: Record<string, number | null>;
}

function indexData(db: AnyOrama): IndexData {
  return db.data.index as unknown as IndexData;
}

function idStore(db: AnyOrama): { internalIdToId: string[]; idToInternalId: Map<string, number> } {
  return db.internalDocumentIDStore as unknown as {
    internalIdToId: string[];
    idToInternalId: Map<string, number>;
  };
}

/** Writes a database's index (not its documents) to a dump and `ints`. */
export function dumpDb(db: AnyOrama, ints: Ints): DbDump {
  const data = indexData(db);
  const trees: DbDump["trees"] = {};
  for (const [field, index] of Object.entries(data.indexes)) {
    if (index.type !== "Radix") throw new Error(`persisted index: field ${field} is not a radix tree`);
    const keys: string[] = [];
    const labels: string[] = [];
    const stack: Node[] = [index.node];
    while (stack.length > 0) {
      const n = stack.pop() as Node;
      keys.push(n.k);
      labels.push(n.s);
      ints.push(n.e ? 1 : 0);
      ints.push(n.c.size);
      ints.push(n.d.size);
      if (n.d instanceof PostingSet) ints.pushAll(n.d.view());
      else for (const id of n.d) ints.push(id);
      const children = [...n.c.values()];
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
    trees[field] = { keys, labels };
    const lengths = data.fieldLengths[field];
    const entries = Object.keys(lengths).filter((k) => lengths[Number(k)] !== undefined);
    ints.push(entries.length);
    for (const k of entries) {
      ints.push(Number(k));
      ints.push(lengths[Number(k)] as number);
    }
  }
  const avgFieldLength: DbDump["avgFieldLength"] = {};
  for (const [k, v] of Object.entries(data.avgFieldLength)) avgFieldLength[k] = v ?? null;
  return {
    ids: [...idStore(db).internalIdToId],
    trees,
    tokenOccurrences: data.tokenOccurrences,
    avgFieldLength,
  };
}

function readTree(keys: string[], labels: string[], ints: Ints): Node {
  let at = 0;
  const read = (parentWord: string, root: boolean): Node => {
    if (at >= keys.length) throw new Error("persisted index: radix tree ends early");
    const node: Node = root ? new radix.RadixTree() : new radix.RadixNode(keys[at], labels[at], false);
    node.k = keys[at];
    node.s = labels[at];
    node.w = parentWord + node.s;
    at++;
    node.e = ints.next() === 1;
    const children = ints.next();
    const docs = ints.next();
    if (docs > 0) node.d = new PostingSet(ints.take(docs));
    for (let i = 0; i < children; i++) {
      const child = read(node.w, false);
      node.c.set(child.k, child);
    }
    return node;
  };
  const root = read("", true);
  if (at !== keys.length) throw new Error("persisted index: radix tree has nodes left over");
  return root;
}

/**
 * Loads a dump into a database fresh from newArticleDb()/newPassageDb() (same schema): its index and its ids.
 * `ids` are the documents it holds (our ids; each must be among the dump's); orama counts them, their
 * documents are put back only when removed (see the module comment).
 */
export function restoreDb(db: AnyOrama, dump: DbDump, ints: Ints, ids: Iterable<string>): void {
  const data = indexData(db);
  const fields = Object.keys(data.indexes);
  if (fields.join() !== Object.keys(dump.trees).join())
    throw new Error("persisted index: fields differ from the schema");
  for (const field of fields) {
    const { keys, labels } = dump.trees[field];
    data.indexes[field].node = readTree(keys, labels, ints);
    const lengths: Record<number, number | undefined> = {};
    const n = ints.next();
    for (let i = 0; i < n; i++) {
      const id = ints.next();
      lengths[id] = ints.next();
    }
    data.fieldLengths[field] = lengths;
    data.avgFieldLength[field] = dump.avgFieldLength[field] ?? undefined;
    data.tokenOccurrences[field] = dump.tokenOccurrences[field] ?? {};
  }
  const store = idStore(db);
  // orama appends to the array: a copy, so the dump stays as it was; the map filled without a pair per id
  store.internalIdToId = dump.ids.slice();
  const toInternal = new Map<string, number>();
  for (let i = 0; i < dump.ids.length; i++) toInternal.set(dump.ids[i], i + 1);
  store.idToInternalId = toInternal;
  let count = 0;
  for (const id of ids) {
    if (!store.idToInternalId.has(id)) throw new Error("persisted index: a document has no internal id");
    count++;
  }
  (db.data.docs as unknown as DocStore).count = count;
}

type DocStore = { docs: Record<number, object | undefined>; count: number };

/**
 * Turns every orama Set of a database's radix trees into a PostingSet (search.postings.ts) over one shared block
 * (same ids, same order): after a build from the store, so a cold start holds what a warm one does. Lists already
 * PostingSets stay; empty Sets stay (orama adds to them in place).
 */
export function packPostings(db: AnyOrama): void {
  const open: Node[] = [];
  let total = 0;
  for (const { node } of Object.values(indexData(db).indexes)) {
    const stack = [node];
    while (stack.length > 0) {
      const n = stack.pop() as Node;
      if (n.d.size > 0 && !(n.d instanceof PostingSet)) {
        open.push(n);
        total += n.d.size;
      }
      for (const c of n.c.values()) stack.push(c);
    }
  }
  const block = new Int32Array(total);
  let at = 0;
  for (const n of open) {
    const from = at;
    for (const id of n.d) block[at++] = id;
    n.d = new PostingSet(block.subarray(from, at));
  }
}

/**
 * Drops orama's copies of a database's documents, keeping their count, as restoreDb() leaves a restored one: after a
 * build, so a cold start holds what a warm one does. orama reads a document only to remove its words, and
 * removeDoc() puts it back first (putBackDoc()).
 */
export function dropDocs(db: AnyOrama): void {
  (db.data.docs as unknown as DocStore).docs = {};
}

/** Puts a restored document back (not counted again: restoreDb counted it) unless orama holds it already. */
export function putBackDoc(db: AnyOrama, id: string, doc: () => object): void {
  const internalId = idStore(db).idToInternalId.get(id);
  const store = db.data.docs as unknown as DocStore;
  if (internalId !== undefined && store.docs[internalId] === undefined) store.docs[internalId] = doc();
}
