/**
 * What the index keeps of an article: its fields, the revision and field hash that say whether an upsert
 * changes anything, its fingerprint digest, and its passages (chunked, each with the key of its embedded text
 * and, once embedded, its vector). Preparing one reuses the vectors of passages whose text did not change.
 */

import type { AnyOrama } from "@orama/orama";
import { chunkArticle } from "./search.chunker";
import { entryDigest, hashArticleFields } from "./search.fingerprint";
import { externalIds } from "./search.orama";
import type { ChunkOptions, IndexableArticle, IndexStats, Passage, RetrievedPassage } from "./search.types";
import { embedKeyOf, type StoredPassage } from "./search.vectors";

export interface StoredArticle {
  id: string;
  title: string;
  content: string;
  category: string;
  subcategory?: string;
  tags: string[];
  revision: string;
  /** Hash of the indexed fields: an edit is re-indexed even if the caller kept the same updatedAt. */
  fieldsHash: string;
  digest: bigint;
  passages: StoredPassage[];
}

export interface Prepared {
  article: StoredArticle;
  /** Passages still needing a vector (none when the index does not embed). */
  missing: StoredPassage[];
}

/** True when the index already holds this article at this revision with these fields (an upsert is a no-op). */
export function isCurrent(
  stored: StoredArticle | undefined,
  a: IndexableArticle,
  revision: string,
): stored is StoredArticle {
  return stored !== undefined && stored.revision === revision && stored.fieldsHash === hashArticleFields(a);
}

/** The vectors of the articles' passages by embed key: what an edit or rebuild can reuse. */
export function reusableVectors(articles: Iterable<StoredArticle>): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  for (const a of articles) for (const p of a.passages) if (p.vector) out.set(p.embedKey, p.vector);
  return out;
}

/** A validated article → what the index stores; with `embedding`, passages not in `reuse` are `missing`. */
export function prepareArticle(
  a: IndexableArticle,
  revision: string,
  options: { chunk: ChunkOptions; embedding: boolean; reuse: Map<string, Float32Array> },
): Prepared {
  const passages: StoredPassage[] = chunkArticle(a, options.chunk).map((p) => {
    const embedKey = embedKeyOf(p);
    return { ...p, embedKey, vector: options.embedding ? options.reuse.get(embedKey) : undefined };
  });
  const article: StoredArticle = {
    id: a.id,
    title: a.title,
    content: a.content,
    category: a.category,
    subcategory: a.subcategory ?? undefined,
    tags: [...(a.tags ?? [])],
    revision,
    fieldsHash: hashArticleFields(a),
    digest: entryDigest(a.id, revision),
    passages,
  };
  return { article, missing: options.embedding ? passages.filter((p) => !p.vector) : [] };
}

/** A stored passage as callers see it (without the index's embedding internals). */
export function publicPassage(p: StoredPassage): Passage {
  // field by field, in the stored order: a rest-spread copy (and a spread of it) cost ~20 µs a passage, ten
  // passages a chat question before its model request
  return {
    id: p.id,
    articleId: p.articleId,
    title: p.title,
    category: p.category,
    headingPath: p.headingPath,
    text: p.text,
    position: p.position,
    wordCount: p.wordCount,
  };
}

/** A stored passage as a retrieval result, with its scores. */
export function retrievedPassage(
  p: StoredPassage,
  score: number,
  lexical?: number,
  vector?: number,
): RetrievedPassage {
  const out: RetrievedPassage = publicPassage(p) as RetrievedPassage;
  out.headingPath = [...p.headingPath];
  out.score = score;
  if (lexical !== undefined) out.lexicalScore = lexical;
  if (vector !== undefined) out.vectorScore = vector;
  return out;
}

/** A filter on orama internal ids: the document's article or passage is in `category`. */
export function inCategory(
  db: AnyOrama,
  docs: Map<string, { category: string }>,
  category: string,
): (internalId: number) => boolean {
  const idOf = externalIds(db);
  return (internalId) => docs.get(idOf(internalId))?.category === category;
}

/**
 * A filter on the passage database's internal ids: the passage is in `category` (when given) and its article is
 * one of `articleIds` (when given). Undefined when there is nothing to filter. Checked while scoring, so a scope
 * of a few articles is ranked among its own passages, not cut out of the best of all.
 */
export function passageFilter(
  db: AnyOrama,
  passages: Map<string, { category: string; articleId: string }>,
  filter: { category?: string; articleIds?: ReadonlySet<string> },
): ((internalId: number) => boolean) | undefined {
  const { category, articleIds } = filter;
  if (category === undefined && articleIds === undefined) return undefined;
  const idOf = externalIds(db);
  return (internalId) => {
    const p = passages.get(idOf(internalId));
    return (
      p !== undefined &&
      (category === undefined || p.category === category) &&
      (articleIds === undefined || articleIds.has(p.articleId))
    );
  };
}

/** The index's figures (KnowledgeIndex.stats()). */
export function indexStats(s: {
  articles: Map<string, StoredArticle>;
  passages: Map<string, StoredPassage>;
  vocabulary: { size: number };
  hybrid: boolean;
  version: number;
  fingerprint: string;
}): IndexStats {
  let embedded = 0;
  for (const p of s.passages.values()) if (p.vector) embedded++;
  return {
    articles: s.articles.size,
    passages: s.passages.size,
    embeddedPassages: embedded,
    pendingEmbeddings: s.hybrid ? s.passages.size - embedded : 0,
    vocabulary: s.vocabulary.size,
    hybrid: s.hybrid,
    version: s.version,
    fingerprint: s.fingerprint,
  };
}
