import { type AnyOrama, components } from "@orama/orama";
import { PostingSet } from "./search.postings";

/*
 * How we use orama (3.1.18) at 20,000 articles. orama keeps the index: the tokenizer hook, one radix
 * tree per field, BM25 statistics (document frequencies, field lengths), the documents and their
 * ids, inserts and removals. Queries run through scoreTopK() below, directly over those structures,
 * because orama's own search() was 50-200 ms per query at 20,000 generated articles: it copies each
 * word's documents with Array.includes in a loop (quadratic), builds a Map per matching document,
 * and sorts every match to return ten.
 */

const base = components.index.createIndex();

type RadixNode = {
  /** Edge label. */
  s: string;
  /** The whole word at this node. */
  w: string;
  /** Whether a word ends here. */
  e: boolean;
  /** Documents containing the word. */
  d: Set<number>;
  c: Map<string, RadixNode>;
};

type IndexData = {
  indexes: Record<string, { type: string; node: RadixNode }>;
  tokenOccurrences: Record<string, Record<string, number>>;
  fieldLengths: Record<string, Record<number, number | undefined>>;
  avgFieldLength: Record<string, number | undefined>;
};

/**
 * Term frequencies. Our tokenizer yields each term of a field once, so orama's tf for a term in a
 * document is always 1 / (number of terms in the field). orama nevertheless stores it per document
 * and term (hundreds of MB at 20,000 articles) after counting it in a loop that is quadratic in the
 * field's length. We keep only the document frequency, which BM25 needs, and derive tf when scoring.
 */
const insertTokenScoreParameters = (
  index: IndexData,
  prop: string,
  _id: unknown,
  _tokens: string[],
  token: string,
) => {
  const occurrences = index.tokenOccurrences[prop];
  occurrences[token] = (occurrences[token] ?? 0) + 1;
};

/**
 * orama's, without the empty per-document term-frequency object it keeps for every field of every document
 * (tens of MB at 20,000 articles; see above: nothing reads it).
 */
const insertDocumentScoreParameters = (
  index: IndexData & { sharedInternalDocumentStore: { idToInternalId: Map<string, number> } },
  prop: string,
  id: number | string,
  tokens: string[],
  docsCount: number,
) => {
  // orama passes the internal id (as getInternalDocumentId() would return it)
  const internalId =
    typeof id === "number" ? id : (index.sharedInternalDocumentStore.idToInternalId.get(id) as number);
  index.avgFieldLength[prop] =
    ((index.avgFieldLength[prop] ?? 0) * (docsCount - 1) + tokens.length) / docsCount;
  index.fieldLengths[prop][internalId] = tokens.length;
};

/**
 * orama's default index component without per-document term frequencies; pass as `components.index`
 * together with a tokenizer that yields each term once per field. Query it with scoreTopK().
 */
export function createIndexComponent(): typeof base {
  return {
    ...base,
    insertTokenScoreParameters:
      insertTokenScoreParameters as unknown as typeof base.insertTokenScoreParameters,
    insertDocumentScoreParameters:
      insertDocumentScoreParameters as unknown as typeof base.insertDocumentScoreParameters,
  };
}

/** Words in a radix tree that start with `prefix`, each with its documents. */
function wordsWithPrefix(root: RadixNode, prefix: string, out: [string, Set<number>][]): void {
  let node = root;
  let i = 0;
  while (i < prefix.length) {
    const child = node.c.get(prefix[i]);
    if (!child) return;
    const label = child.s;
    let j = 0;
    while (j < label.length && i + j < prefix.length && label[j] === prefix[i + j]) j++;
    if (j < label.length && i + j < prefix.length) return; // diverges inside the edge
    node = child;
    i += j;
  }
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop() as RadixNode;
    if (n.e && n.d.size > 0) out.push([n.w, n.d]);
    for (const c of n.c.values()) stack.push(c);
  }
}

export interface ScoreOptions {
  /** Fields to search and their boosts. */
  fields: Record<string, number>;
  /** How many of the best documents to return (offset + limit). */
  k: number;
  /** Per term (same order as the terms), a factor on its score; 1 when absent. */
  weights?: readonly number[];
  /** Only documents for which this returns true (by orama internal id). */
  accept?: (internalId: number) => boolean;
  bm25?: { k: number; b: number; d: number };
  /**
   * Changes whenever the database's documents change (KnowledgeIndex.version). With it, the per-document
   * part of BM25 is worked out once per field and kept until the version moves; without it, every call.
   */
  version?: number;
}

export interface ScoredDocuments {
  /** External document ids and scores, best first. */
  top: { id: string; score: number }[];
  /** Number of documents matching any term. */
  total: number;
}

/** Per database, reused by every query: the score of each document, and which documents have one. */
const buffers = new WeakMap<AnyOrama, { scores: Float64Array; touched: Int32Array }>();

/**
 * A word's documents as an array (iterating orama's Set is most of a query's cost), kept while the database
 * version stays the same (the Set may have changed when it moves).
 */
const postingLists = new WeakMap<Set<number>, { version: number; ids: Int32Array }>();

function postingsOf(docs: Set<number>, version: number | undefined): Int32Array {
  if (docs instanceof PostingSet) return docs.view(); // already an array (a restored or built index)
  const cached = postingLists.get(docs);
  if (cached && version !== undefined && cached.version === version) return cached.ids;
  const ids = Int32Array.from(docs);
  if (version !== undefined) postingLists.set(docs, { version, ids });
  return ids;
}

/** Per database: the BM25 length factor of every document, per field, for one version of the database. */
const lengthFactors = new WeakMap<
  AnyOrama,
  { version: number; k1: number; b: number; d: number; fields: Map<string, Float64Array> }
>();

/**
 * Our tokenizer yields each term once per field, so a document's term frequency in a field is 1 / length,
 * and BM25's contribution of a (word, field, document) is boost × idf × factor(length), where
 *   factor(length) = (d + tf × (k1 + 1)) / (tf + k1 × (1 − b + b × length / avgLength)),  tf = 1 / length.
 * factor depends on the document and field only: one array per field, indexed by internal id (0 = no text).
 */
function lengthFactorsOf(
  db: AnyOrama,
  data: IndexData,
  field: string,
  size: number,
  params: { k1: number; b: number; d: number },
  version: number | undefined,
): Float64Array {
  let cache = lengthFactors.get(db);
  if (
    version === undefined ||
    !cache ||
    cache.version !== version ||
    cache.k1 !== params.k1 ||
    cache.b !== params.b ||
    cache.d !== params.d
  ) {
    cache = { version: version ?? -1, ...params, fields: new Map() };
    if (version !== undefined) lengthFactors.set(db, cache);
  }
  let factors = cache.fields.get(field);
  if (factors && factors.length > size) return factors;
  const { k1, b, d } = params;
  const lengths = data.fieldLengths[field];
  const avgLength = data.avgFieldLength[field] || 1;
  factors = new Float64Array(size + 1);
  // by number, not `for in` (which makes a string of every id: ~2/3 of the time at 80,000 passages)
  for (let id = 0; id <= size; id++) {
    const length = lengths[id];
    if (!length) continue;
    const tf = 1 / length;
    factors[id] = (d + tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength));
  }
  cache.fields.set(field, factors);
  return factors;
}

/**
 * BM25 over an orama database (orama's formula and parameters: k 1.2, b 0.75, d 0.5): each term is
 * matched as a prefix of indexed words (terms ending in the tokenizer's end marker match one word
 * whole), scores are summed over terms and fields with the field boosts, and only the best k are
 * sorted. Synchronous and allocation-light: one reusable score buffer per database.
 */
export function scoreTopK(db: AnyOrama, terms: string[], options: ScoreOptions): ScoredDocuments {
  const data = db.data.index as unknown as IndexData;
  const ids = (db.internalDocumentIDStore as unknown as { internalIdToId: string[] }).internalIdToId;
  const docsCount = (db.documentsStore as unknown as { count(docs: unknown): number }).count(db.data.docs);
  const { k: k1, b, d } = options.bm25 ?? { k: 1.2, b: 0.75, d: 0.5 };
  if (docsCount === 0 || terms.length === 0) return { top: [], total: 0 };

  let buffer = buffers.get(db);
  if (!buffer || buffer.scores.length <= ids.length) {
    const size = Math.max(1024, ids.length * 2);
    buffer = { scores: new Float64Array(size), touched: new Int32Array(size) };
    buffers.set(db, buffer);
  }
  const { scores, touched } = buffer;
  let touchedCount = 0;
  const accept = options.accept;
  const words: [string, Set<number>][] = [];
  for (const [field, boost] of Object.entries(options.fields)) {
    const tree = data.indexes[field];
    if (tree?.type !== "Radix") continue;
    const occurrences = data.tokenOccurrences[field];
    const factors = lengthFactorsOf(db, data, field, ids.length, { k1, b, d }, options.version);
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t];
      const termWeight = options.weights?.[t] ?? 1;
      words.length = 0;
      wordsWithPrefix(tree.node, term, words);
      for (const [word, docs] of words) {
        const df = occurrences[word] ?? 0;
        const weight = termWeight * boost * Math.log(1 + (docsCount - df + 0.5) / (df + 0.5));
        const postings = postingsOf(docs, options.version);
        for (let i = 0; i < postings.length; i++) {
          const id = postings[i];
          const factor = factors[id];
          if (!(factor > 0)) continue; // no text in this field (or an id newer than the factors)
          if (accept && !accept(id)) continue;
          if (scores[id] === 0) touched[touchedCount++] = id;
          scores[id] += weight * factor;
        }
      }
    }
  }

  const k = Math.max(0, options.k);
  let best: { internal: number; score: number }[] = [];
  if (k > 256) {
    // Deep pages: sorting everything is cheaper than keeping a long sorted array.
    best = Array.from(touched.subarray(0, touchedCount), (id) => ({ internal: id, score: scores[id] }))
      .sort((x, y) => y.score - x.score)
      .slice(0, k);
    for (let i = 0; i < touchedCount; i++) scores[touched[i]] = 0;
  } else {
    // Keep the best k in a small sorted array, resetting the buffer as we go.
    for (let i = 0; i < touchedCount; i++) {
      const id = touched[i];
      const score = scores[id];
      scores[id] = 0;
      if (best.length === k && (k === 0 || score <= best[k - 1].score)) continue;
      let pos = best.length;
      while (pos > 0 && best[pos - 1].score < score) pos--;
      best.splice(pos, 0, { internal: id, score });
      if (best.length > k) best.pop();
    }
  }
  return { top: best.map((x) => ({ id: ids[x.internal - 1], score: x.score })), total: touchedCount };
}
