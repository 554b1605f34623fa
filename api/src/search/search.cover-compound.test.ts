/**
 * A question word found only inside a longer compound ('leverandørfaktura' for 'leverandør') against the word
 * itself (issue 15, round 11), on made-up term sets: of two texts alike otherwise, the one with the word itself
 * ranks first; the gate still counts the compound as (almost) the word; and a compound is no firm company for a
 * thesaurus word (THESAURUS_NEEDS_COMPANY).
 */
import { describe, expect, it } from "vitest";
import { analyse } from "./search.analyzer";
import { coverageOf, PREFIXED_COVER, rerank, type TermSets } from "./search.coverage";
import { analyseQuery, type QueryConcept } from "./search.query";
import { Vocabulary } from "./search.vocabulary";

const ARTICLES = {
  word: "Leverandører. En ny leverandør oprettes af økonomimedarbejderen.",
  compound: "Fakturaer. En leverandørfaktura oprettes af økonomimedarbejderen.",
  other: "Ferie. Ferie skal godkendes af lederen i god tid.",
};

const vocabulary = new Vocabulary();
for (const content of Object.values(ARTICLES))
  vocabulary.count({ title: "", category: "", tags: [], content }, 1);

const setsOf = (text: string): TermSets => ({ all: new Set(analyse(text)), headings: new Set() });

describe("a question word only inside a compound", () => {
  it("should rank the text with the word itself above the text with only a compound starting with it", () => {
    const { concepts } = analyseQuery("leverandør oprettes", vocabulary);
    const word = coverageOf(concepts, setsOf(ARTICLES.word));
    const compound = coverageOf(concepts, setsOf(ARTICLES.compound));
    expect(word.coverage).toBe(1);
    expect(compound.coverage).toBeLessThan(word.coverage);
    // BM25 alike: coverage decides, whichever candidate comes first
    const ranked = rerank(
      [
        { id: "compound", score: 1 },
        { id: "word", score: 1 },
      ],
      concepts,
      (id) => setsOf(ARTICLES[id as keyof typeof ARTICLES]),
    );
    expect(ranked.map((r) => r.id)).toEqual(["word", "compound"]);
  });

  it("should still count the compound as almost the whole word for the gate", () => {
    const { concepts } = analyseQuery("leverandør", vocabulary);
    const compound = coverageOf(concepts, setsOf(ARTICLES.compound));
    expect(compound.coverage).toBeCloseTo(PREFIXED_COVER, 5);
    expect(compound.uncovered).toBeLessThan(0.1 * (concepts[0].evidenceIdf ?? concepts[0].idf));
    expect(coverageOf(concepts, setsOf(ARTICLES.other)).coverage).toBe(0);
  });

  it("should not let a compound starting with a question word be the company a thesaurus word needs", () => {
    // 'tjekker' read by the thesaurus as 'kontrol' (loose); 'leverandør' as itself or as the start of compounds
    const lever = analyseQuery("leverandør", vocabulary).concepts[0];
    const check: QueryConcept = {
      word: "tjekker",
      terms: ["kontrol"],
      weights: [0.4],
      prefixes: [],
      prefixed: new Set(),
      idf: 3,
      loose: new Set(["kontrol"]),
    };
    const concepts = [check, lever];
    const withWord = coverageOf(concepts, setsOf("Kontrol af hver ny leverandør."));
    const withCompound = coverageOf(concepts, setsOf("Kontrol af hver leverandørfaktura."));
    expect(withWord.coverage).toBeGreaterThan(lever.idf / (lever.idf + check.idf));
    // the compound covers 'leverandør' but does not vouch for the thesaurus's 'kontrol'
    expect(withCompound.coverage).toBeCloseTo((PREFIXED_COVER * lever.idf) / (lever.idf + check.idf), 5);
  });
});
