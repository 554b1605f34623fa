import { describe, expect, it } from "vitest";
import { fuseRanks, RRF_K, topWithLexical } from "./search.fusion";

const lexical = (...ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }));
const vector = (...ids: string[]) => ids.map((id, i) => ({ id, similarity: 0.9 - i / 10 }));

describe("fuseRanks", () => {
  it("should score rank 1 in both lists 1, and rank 1 in one list alone 0.5", () => {
    const fused = fuseRanks(lexical("a", "b"), vector("a", "c"));
    expect(fused[0]).toEqual({ id: "a", score: 1, lexical: 10, vector: 0.9 });
    expect(fuseRanks(lexical("x"), [])[0].score).toBe(0.5);
    expect(fuseRanks([], vector("y"))[0].score).toBe(0.5);
  });

  it("should give each list 1 / (RRF_K + rank), scaled", () => {
    const [only] = fuseRanks(lexical("a", "b", "c"), []).filter((f) => f.id === "c");
    expect(only.score).toBeCloseTo(1 / (RRF_K + 3) / (2 / (RRF_K + 1)), 12);
  });

  it("should rank a passage found by both lists above passages found by one, whatever their ranks", () => {
    const fused = fuseRanks(lexical("a", "b", "both"), vector("c", "d", "both"));
    expect(fused[0].id).toBe("both");
    expect(fused.map((f) => f.id)).toHaveLength(5);
  });

  it("should keep each list's own score: lexical for text matches, vector for embedding matches", () => {
    const fused = fuseRanks(lexical("a"), vector("b"));
    expect(fused.find((f) => f.id === "a")).toEqual({ id: "a", score: 0.5, lexical: 10 });
    expect(fused.find((f) => f.id === "b")).toEqual({ id: "b", score: 0.5, vector: 0.9 });
  });

  it("should order equal scores by the text ranking first, then the vector ranking", () => {
    expect(fuseRanks(lexical("a", "b"), vector("c", "d")).map((f) => f.id)).toEqual(["a", "c", "b", "d"]);
  });

  it("should give nothing for two empty lists", () => {
    expect(fuseRanks([], [])).toEqual([]);
  });
});

describe("topWithLexical", () => {
  it("should keep the text ranking's best half of k among the candidates, in place of lower-evidence others", () => {
    // 'x1'..'x3' are far down the text ranking but first by vectors: RRF puts them above the text ranking's 'l2'
    const text = lexical("l1", "l2", "x1", "x2", "x3");
    const fused = fuseRanks(text, vector("x1", "x2", "x3"));
    expect(fused.slice(0, 4).map((f) => f.id)).toEqual(["x1", "x2", "x3", "l1"]);
    const top = topWithLexical(fused, text, 4); // ceil(4 × LEXICAL_SHARE) = 2 kept
    expect(top.map((f) => f.id)).toEqual(["x1", "x2", "l1", "l2"]);
  });

  it("should take the fused ranking as it is when the text ranking's best are already in it", () => {
    const fused = fuseRanks(lexical("a", "b"), vector("a", "b", "c"));
    expect(topWithLexical(fused, lexical("a", "b"), 2).map((f) => f.id)).toEqual(["a", "b"]);
  });
});
