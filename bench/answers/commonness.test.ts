/**
 * The diagnostic weighting of round 17 (commonness.ts): an everyday Danish word's telling weight drops, a word the
 * general-Danish data lacks keeps the articles' IDF, and λ 0 changes nothing.
 */
import { describe, expect, it } from "vitest";
import type { QueryConcept } from "../../api/src/search/search.query";
import { NO_COMMONNESS, withCommonness } from "./commonness";

const concept = (word: string, idf: number): QueryConcept => ({
  word,
  terms: [],
  weights: [],
  prefixes: [],
  prefixed: new Set(),
  idf,
  evidenceIdf: idf,
});

describe("commonness weighting (diagnostic)", () => {
  it("should make an everyday word less telling and leave a word the data lacks alone", () => {
    const [everyday, unknown] = withCommonness([concept("vælge", 3), concept("juleaftensdag", 3)], {
      uncovered: 0.6,
      matched: 0,
    });
    expect(everyday.evidenceIdf).toBeLessThan(3 * 0.5);
    expect(everyday.idf).toBe(3);
    expect(unknown.evidenceIdf).toBe(3);
  });

  it("should weigh what covering a word proves only with its own λ, and change nothing at λ 0", () => {
    const [matched] = withCommonness([concept("vælge", 3)], { uncovered: 0, matched: 0.5 });
    expect(matched.idf).toBeLessThan(3 * 0.6);
    expect(matched.evidenceIdf).toBe(3);
    const [none] = withCommonness([concept("vælge", 3)], NO_COMMONNESS);
    expect(none).toEqual(concept("vælge", 3));
  });
});
