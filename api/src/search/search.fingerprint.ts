import { createHash, hash } from "node:crypto";
import type { IndexableArticle } from "./search.types";

/** What a fingerprint is computed from: at least the id, plus updatedAt or the indexed fields. */
export type FingerprintSource = Pick<IndexableArticle, "id"> & Partial<Omit<IndexableArticle, "id">>;

const MASK_64 = (1n << 64n) - 1n;

/** Hash of the fields the index uses (title, content, category, subcategory, tags). */
export function hashArticleFields(a: Partial<IndexableArticle>): string {
  return createHash("sha1")
    .update(
      JSON.stringify([a.title ?? "", a.content ?? "", a.category ?? "", a.subcategory ?? "", a.tags ?? []]),
    )
    .digest("hex");
}

/** The article's revision: its updatedAt when known, else a hash of its indexed fields. */
export function revisionOf(a: FingerprintSource): string {
  if (a.updatedAt !== undefined && a.updatedAt !== null) {
    const t = new Date(a.updatedAt).getTime();
    if (Number.isFinite(t)) return `t:${t}`;
  }
  return `h:${hashArticleFields(a)}`;
}

/** 64-bit digest of one (id, revision) pair; XOR-combined so adding/removing one article is O(1). */
export function entryDigest(id: string, revision: string): bigint {
  // one-shot hash(): a restore computes 20,000 of these (about half the time of createHash().update().digest())
  const hex = hash("sha1", `${id}\u0000${revision}`, "hex").slice(0, 16);
  return BigInt(`0x${hex}`) & MASK_64;
}

export function formatFingerprint(count: number, xor: bigint): string {
  return `${count}-${xor.toString(16).padStart(16, "0")}`;
}

/**
 * Order-independent fingerprint of a set of articles, equal to KnowledgeIndex.fingerprint when the
 * index holds exactly these articles at these revisions. A service can compute it from
 * `{ id, updatedAt }` pairs read from the database and rebuild the index when it differs.
 */
export function computeFingerprint(articles: Iterable<FingerprintSource>): string {
  let xor = 0n;
  let count = 0;
  for (const a of articles) {
    xor ^= entryDigest(String(a.id), revisionOf(a));
    count++;
  }
  return formatFingerprint(count, xor);
}
