/**
 * The chat's passages: relevances in 0..1 from text matches (the search module's rule) and, with embeddings,
 * rescaled cosine similarities; and retrievePassages through the running server over the sample content.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RetrievalResult, RetrievedPassage } from "../search/search.types";
import { startTestApp, type TestApp } from "../testing/app";
import { COSINE_FLOOR, COSINE_SPAN, RETRIEVE_K_MAX, relevances } from "./knowledge.retrieval";

let counter = 0;
function passage(text: string, fields: Partial<RetrievedPassage> = {}): RetrievedPassage {
  counter++;
  return {
    id: `a#${counter}`,
    articleId: "a",
    title: "Klager",
    category: "Sagsbehandling",
    headingPath: [],
    text,
    position: counter,
    wordCount: text.split(" ").length,
    score: 1,
    ...fields,
  };
}

function result(mode: RetrievalResult["mode"], text: string, passages: RetrievedPassage[]): RetrievalResult {
  return { mode, passages, query: { text, truncated: false, terms: [], corrections: [] } };
}

describe("relevances", () => {
  it("should score text matches by the share of the question's words a passage has (BM25 mode)", () => {
    const [both, one] = relevances(
      result("bm25", "klagefrist afgørelse", [
        passage("Klagefristen for en afgørelse er fire uger.", { score: 8 }),
        passage("Klagefristen er kort.", { score: 6 }),
      ]),
    );
    expect(both).toBeGreaterThanOrEqual(0.5);
    expect(both).toBeLessThanOrEqual(1);
    expect(one).toBeLessThan(0.25); // one incidental word of two is not relevance
  });

  it("should rescale cosine similarity: COSINE_FLOOR is 0, COSINE_FLOOR + COSINE_SPAN is 1, clamped", () => {
    const scores = relevances(
      result("hybrid", "helt andre ord", [
        passage("Intet fælles.", { score: 0.5, vectorScore: COSINE_FLOOR + COSINE_SPAN / 2 }),
        passage("Intet fælles.", { score: 0.5, vectorScore: COSINE_FLOOR + COSINE_SPAN * 2 }),
        passage("Intet fælles.", { score: 0.5, vectorScore: COSINE_FLOOR / 2 }),
      ]),
    );
    expect(scores[0]).toBeCloseTo(0.5, 10);
    expect(scores[1]).toBe(1);
    expect(scores[2]).toBe(0);
  });

  it("should take the better of text and vector relevance in hybrid mode, ignoring the fused rank score", () => {
    const [text, vector] = relevances(
      result("hybrid", "klagefrist afgørelse", [
        passage("Klagefristen for en afgørelse er fire uger.", {
          score: 0.5, // the fused score says nothing about relevance
          lexicalScore: 9,
          vectorScore: COSINE_FLOOR,
        }),
        passage("Noget om tidsgrænser for at klage.", {
          score: 0.5,
          vectorScore: COSINE_FLOOR + COSINE_SPAN * 0.8,
        }),
      ]),
    );
    expect(text).toBeGreaterThanOrEqual(0.5);
    expect(vector).toBeCloseTo(0.8, 10);
  });

  it("should give nothing for no passages", () => {
    expect(relevances(result("bm25", "klage", []))).toEqual([]);
  });
});

describe("retrievePassages through the running server", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("should give the chat passages with a 0..1 score, the article's date and a link", async () => {
    const passages = await app.services.knowledge.retrievePassages("Hvad er klagefristen?", 4);
    expect(passages.length).toBeGreaterThan(0);
    expect(passages[0].title).toMatch(/klage/i);
    for (const p of passages) {
      expect(p.score).toBeGreaterThanOrEqual(0);
      expect(p.score).toBeLessThanOrEqual(1);
      expect(p.updatedAt).toBeInstanceOf(Date);
      expect(p.url).toBe(`/knowledge?article=${p.articleId}`);
      expect(Array.isArray(p.headingPath)).toBe(true);
    }
    expect(passages[0].score).toBeGreaterThan(0.5);
    // a question the knowledge base does not cover scores low or finds nothing
    const off = await app.services.knowledge.retrievePassages("opskrift på lagkage med jordbær", 4);
    expect(off.every((p) => p.score < 0.25)).toBe(true);
    expect(await app.services.knowledge.retrievePassages("", 4)).toEqual([]);
  });

  it("should never throw on odd input and give at most RETRIEVE_K_MAX passages", async () => {
    const knowledge = app.services.knowledge;
    for (const q of ["   ", 42, null, undefined]) {
      expect(await knowledge.retrievePassages(q as never, 4), String(q)).toEqual([]);
    }
    expect((await knowledge.retrievePassages("frist klage budget møde", 1_000)).length).toBeLessThanOrEqual(
      RETRIEVE_K_MAX,
    );
    expect(await knowledge.retrievePassages(`klagefrist ${"x".repeat(50_000)}`, 3)).not.toEqual([]);
  });
});
