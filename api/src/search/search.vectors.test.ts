import { describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { buildArticle } from "./search.test-helpers";
import type { Passage } from "./search.types";
import {
  cosine,
  embedInput,
  embedKeyOf,
  nearestPassages,
  normalise,
  PassageEmbedder,
  type StoredPassage,
} from "./search.vectors";

let counter = 0;
function passage(fields: Partial<StoredPassage> = {}): StoredPassage {
  counter++;
  const p: Passage = {
    id: `a#${counter}`,
    articleId: "a",
    title: "Titel",
    category: "Procedurer",
    headingPath: [],
    text: `Tekst ${counter}`,
    position: counter,
    wordCount: 2,
  };
  return { ...p, embedKey: embedKeyOf(p), ...fields };
}

const unit = (...v: number[]) => normalise(v);

describe("embedInput and embedKeyOf", () => {
  it("should embed the title, the heading path and the text, one per line", () => {
    const p = passage({ title: "Klager", headingPath: ["Frister", "Klagefrist"], text: "Fire uger." });
    expect(embedInput(p)).toBe("Klager\nFrister › Klagefrist\nFire uger.");
    expect(embedInput({ ...p, headingPath: [] })).toBe("Klager\nFire uger.");
  });

  it("should give equal keys to equal embedded text only (so an unchanged passage keeps its vector)", () => {
    const p = passage();
    expect(embedKeyOf({ ...p, id: "other#9", position: 9 })).toBe(embedKeyOf(p)); // not part of the text
    expect(embedKeyOf({ ...p, text: `${p.text}!` })).not.toBe(embedKeyOf(p));
    expect(embedKeyOf({ ...p, headingPath: ["Ny"] })).not.toBe(embedKeyOf(p));
    expect(embedKeyOf({ ...p, title: "Anden titel" })).not.toBe(embedKeyOf(p));
  });
});

describe("normalise and cosine", () => {
  it("should scale to unit length, keep a zero vector zero, and give cosine as a dot product", () => {
    const v = normalise([3, 4]);
    expect([...v].map((x) => Math.round(x * 1000) / 1000)).toEqual([0.6, 0.8]);
    expect([...normalise([0, 0])]).toEqual([0, 0]);
    expect(cosine(v, v)).toBeCloseTo(1, 6);
    expect(cosine(unit(1, 0), unit(0, 1))).toBe(0);
    expect(cosine(unit(1, 0), unit(-1, 0))).toBe(-1);
    expect(cosine(unit(1, 1), unit(1, 0))).toBeCloseTo(Math.SQRT1_2, 6);
  });
});

describe("nearestPassages", () => {
  const query = unit(1, 0);
  const close = passage({ vector: unit(1, 0.1) });
  const middle = passage({ vector: unit(1, 1) });
  const far = passage({ vector: unit(0.1, 1) });
  const other = passage({ vector: unit(1, 0), category: "Økonomi" });
  const none = passage();

  it("should order by similarity, most similar first, and leave out passages without a vector", () => {
    const hits = nearestPassages(query, [far, none, middle, close], { limit: 10, minSimilarity: -1 });
    expect(hits.map((h) => h.id)).toEqual([close.id, middle.id, far.id]);
    expect(hits[0].similarity).toBeGreaterThan(hits[1].similarity);
  });

  it("should apply the minimum similarity, the category and the limit", () => {
    const all = [close, middle, far, other];
    expect(nearestPassages(query, all, { limit: 10, minSimilarity: 0.5 }).map((h) => h.id)).toEqual([
      other.id,
      close.id,
      middle.id,
    ]);
    expect(
      nearestPassages(query, all, { limit: 10, minSimilarity: 0, category: "Procedurer" }).map((h) => h.id),
    ).toEqual([close.id, middle.id, far.id]);
    expect(nearestPassages(query, all, { limit: 1, minSimilarity: 0 }).map((h) => h.id)).toEqual([other.id]);
  });
});

describe("PassageEmbedder", () => {
  const fixed = (texts: string[]) => texts.map((t) => [t.length, 1]);

  it("should embed in batches of the batch size and store unit vectors", async () => {
    const calls: number[] = [];
    const embedder = new PassageEmbedder(async (texts) => {
      calls.push(texts.length);
      return fixed(texts);
    }, 2);
    const passages = [passage(), passage(), passage(), passage(), passage()];
    expect(await embedder.embedPassages(passages)).toBeUndefined();
    expect(calls).toEqual([2, 2, 1]);
    for (const p of passages)
      expect(cosine(p.vector as Float32Array, p.vector as Float32Array)).toBeCloseTo(1, 5);
    expect(await embedder.embedPassages([])).toBeUndefined();
    expect(calls).toHaveLength(3); // nothing to embed: no call
  });

  it("should report a failed batch as an error message, keeping the batches before it", async () => {
    let call = 0;
    const embedder = new PassageEmbedder(async (texts) => {
      call++;
      if (call === 2) throw new Error("tjenesten svarer ikke");
      return fixed(texts);
    }, 1);
    const [first, second, third] = [passage(), passage(), passage()];
    expect(await embedder.embedPassages([first, second, third])).toBe("tjenesten svarer ikke");
    expect(first.vector).toBeDefined();
    expect(second.vector).toBeUndefined();
    expect(third.vector).toBeUndefined();
  });

  it("should refuse a vector of another dimension than the first one", async () => {
    let dims = 3;
    const embedder = new PassageEmbedder(async (texts) => texts.map(() => new Array(dims).fill(1)), 8);
    expect(await embedder.embedPassages([passage()])).toBeUndefined();
    dims = 4;
    expect(await embedder.embedPassages([passage()])).toBe("embed returned dimension 4, expected 3");
  });

  it("should embed a query, or give null when it cannot (the index falls back to text search)", async () => {
    expect([...((await new PassageEmbedder(async () => [[0, 2]], 1).embedQuery("x")) ?? [])]).toEqual([0, 1]);
    const failing = new PassageEmbedder(async () => {
      throw new Error("nede");
    }, 1);
    expect(await failing.embedQuery("x")).toBeNull();
    expect(await new PassageEmbedder(async () => [[Number.POSITIVE_INFINITY]], 1).embedQuery("x")).toBeNull();
  });
});

describe("KnowledgeIndex with a faulty embed function", () => {
  it("should reject vectors of the wrong shape as an embedding error", async () => {
    const index = new KnowledgeIndex({ embed: async (texts) => texts.map(() => [Number.NaN]) });
    const result = await index.upsertArticle(buildArticle({ content: "Tekst." }));
    expect(result.embeddingError).toMatch(/finite numbers/);
    const short = new KnowledgeIndex({ embed: async () => [] });
    expect((await short.upsertArticle(buildArticle())).embeddingError).toMatch(/0 vectors for 1 texts/);
  });
});
