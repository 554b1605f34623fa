import { describe, expect, it } from "vitest";
import { revisionOf } from "./search.fingerprint";
import {
  isCurrent,
  prepareArticle,
  publicPassage,
  retrievedPassage,
  reusableVectors,
  type StoredArticle,
} from "./search.stored";
import { buildArticle } from "./search.test-helpers";

const twoSections = buildArticle({
  content: `## Første\n${"Uændret tekst om budget. ".repeat(10)}\n## Andet\n${"Tekst om kontingent. ".repeat(10)}`,
});

function prepared(a = twoSections, embedding = true, reuse = new Map<string, Float32Array>()) {
  return prepareArticle(a, revisionOf(a), { chunk: {}, embedding, reuse });
}

function withVectors(article: StoredArticle): StoredArticle {
  article.passages.forEach((p, i) => {
    p.vector = new Float32Array([i, 1]);
  });
  return article;
}

describe("prepareArticle", () => {
  it("should chunk the article and list every passage as missing a vector when nothing can be reused", () => {
    const { article, missing } = prepared();
    expect(article.passages.map((p) => p.headingPath)).toEqual([["Første"], ["Andet"]]);
    expect(missing).toEqual(article.passages);
    expect(article).toMatchObject({ id: twoSections.id, category: "Procedurer", tags: [] });
  });

  it("should reuse the vector of a passage whose embedded text did not change", () => {
    const before = withVectors(prepared().article);
    const edited = { ...twoSections, content: twoSections.content.replaceAll("kontingent", "referat") };
    const { article, missing } = prepared(edited, true, reusableVectors([before]));
    expect(article.passages[0].vector).toBe(before.passages[0].vector);
    expect(missing.map((p) => p.headingPath)).toEqual([["Andet"]]);
  });

  it("should neither reuse nor ask for vectors when the index does not embed", () => {
    const before = withVectors(prepared().article);
    const { article, missing } = prepared(twoSections, false, reusableVectors([before]));
    expect(missing).toEqual([]);
    expect(article.passages.every((p) => p.vector === undefined)).toBe(true);
  });
});

describe("isCurrent", () => {
  it("should hold only for the same revision and the same fields", () => {
    const a = buildArticle({ updatedAt: new Date("2025-01-01T00:00:00Z") });
    const stored = prepared(a).article;
    expect(isCurrent(stored, a, revisionOf(a))).toBe(true);
    expect(isCurrent(undefined, a, revisionOf(a))).toBe(false);
    const moved = { ...a, updatedAt: new Date("2025-02-01T00:00:00Z") };
    expect(isCurrent(stored, moved, revisionOf(moved))).toBe(false);
    // an edit that kept updatedAt is still an edit
    const sameDate = { ...a, content: "Ny tekst." };
    expect(isCurrent(stored, sameDate, revisionOf(sameDate))).toBe(false);
  });
});

describe("publicPassage and retrievedPassage", () => {
  it("should hide the embedding internals and set only the scores that exist", () => {
    const [p] = withVectors(prepared().article).passages;
    expect(Object.keys(publicPassage(p))).not.toContain("vector");
    expect(Object.keys(publicPassage(p))).not.toContain("embedKey");
    const lexicalOnly = retrievedPassage(p, 0.5, 3.2);
    expect(lexicalOnly).toMatchObject({ id: p.id, score: 0.5, lexicalScore: 3.2 });
    expect("vectorScore" in lexicalOnly).toBe(false);
    // every field of the passage, in its stored order, then the scores (what a spread of it gave)
    const { embedKey: _k, vector: _v, ...fields } = p;
    expect(Object.keys(lexicalOnly)).toEqual([...Object.keys(fields), "score", "lexicalScore"]);
    expect(lexicalOnly).toEqual({ ...fields, score: 0.5, lexicalScore: 3.2 });
    const both = retrievedPassage(p, 1, 3.2, 0.8);
    expect(both).toMatchObject({ lexicalScore: 3.2, vectorScore: 0.8 });
    both.headingPath.push("ændret"); // a copy: callers cannot change the index
    expect(p.headingPath).toEqual(["Første"]);
  });
});
