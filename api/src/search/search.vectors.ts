/**
 * Passage embeddings: what text of a passage is embedded (and the key that lets an unchanged passage keep its
 * vector across edits), calling the embed function in batches with its answers checked, and the nearest
 * passages to a query by cosine similarity. Vectors are stored unit length, so cosine similarity is a dot
 * product.
 */
import { createHash } from "node:crypto";
import type { EmbedFunction, Passage } from "./search.types";

/** A passage as the index keeps it: with the key of its embedded text and, once embedded, its vector. */
export interface StoredPassage extends Passage {
  /** sha1 of embedInput(passage): equal keys = equal embedded text = the vector can be reused */
  embedKey: string;
  vector?: Float32Array;
}

/** A passage close to the query vector. */
export interface VectorHit {
  id: string;
  /** cosine similarity, -1..1 */
  similarity: number;
}

/** The text embedded for a passage: its article's title and its headings give the text its context. */
export function embedInput(p: Passage): string {
  return [p.title, p.headingPath.join(" › "), p.text].filter(Boolean).join("\n");
}

/** The key under which a passage's vector is kept (and reused when an edit leaves the passage as it was). */
export function embedKeyOf(p: Passage): string {
  return createHash("sha1").update(embedInput(p)).digest("hex");
}

/** The vector scaled to unit length (a zero vector stays zero). */
export function normalise(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] / norm;
  return out;
}

/** Cosine similarity of two unit-length vectors of the same dimension. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * The `limit` passages most similar to the query vector (most similar first), leaving out passages without a
 * vector, of another category than `category` (when given) or below `minSimilarity`.
 */
export function nearestPassages(
  query: Float32Array,
  passages: Iterable<StoredPassage>,
  options: { limit: number; minSimilarity: number; category?: string; articleIds?: ReadonlySet<string> },
): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const p of passages) {
    if (!p.vector || (options.category && p.category !== options.category)) continue;
    if (options.articleIds && !options.articleIds.has(p.articleId)) continue;
    const similarity = cosine(query, p.vector);
    if (similarity >= options.minSimilarity) hits.push({ id: p.id, similarity });
  }
  hits.sort((a, b) => b.similarity - a.similarity);
  return hits.slice(0, options.limit);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Calls an embed function for the index: in batches of `batchSize`, checking that every answer is one list of
 * finite numbers per text, all of the dimension of the first answer, and storing vectors unit length.
 */
export class PassageEmbedder {
  /** the dimension of the first vector the embed function returned; every later one must match it */
  private dimension: number | null = null;

  constructor(
    private readonly embed: EmbedFunction,
    private readonly batchSize: number,
  ) {}

  /**
   * Embeds passages, setting their vectors batch by batch. Returns an error message instead of throwing:
   * the passages of the failed batch and after it stay without a vector (text only) until a retry.
   */
  async embedPassages(passages: StoredPassage[]): Promise<string | undefined> {
    if (passages.length === 0) return undefined;
    try {
      for (let i = 0; i < passages.length; i += this.batchSize) {
        const batch = passages.slice(i, i + this.batchSize);
        const vectors = await this.embedChecked(batch.map(embedInput));
        batch.forEach((p, j) => {
          p.vector = vectors[j];
        });
      }
      return undefined;
    } catch (err) {
      return errorMessage(err);
    }
  }

  /** The query's vector, or null when it cannot be embedded (the caller falls back to text search). */
  async embedQuery(text: string): Promise<Float32Array | null> {
    try {
      const [vector] = await this.embedChecked([text]);
      return vector;
    } catch {
      return null;
    }
  }

  private async embedChecked(texts: string[]): Promise<Float32Array[]> {
    const out = await this.embed(texts);
    if (!Array.isArray(out) || out.length !== texts.length) {
      throw new Error(
        `embed returned ${Array.isArray(out) ? out.length : "no"} vectors for ${texts.length} texts`,
      );
    }
    return out.map((v) => {
      if (
        !Array.isArray(v) ||
        v.length === 0 ||
        !v.every((x) => typeof x === "number" && Number.isFinite(x))
      ) {
        throw new Error("embed returned a vector that is not a list of finite numbers");
      }
      if (this.dimension === null) this.dimension = v.length;
      if (v.length !== this.dimension)
        throw new Error(`embed returned dimension ${v.length}, expected ${this.dimension}`);
      return normalise(v);
    });
  }
}
