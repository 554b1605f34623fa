/**
 * The lexicon's rules (lexicon/da.json; docs/search-and-answers.md, "The lexicon"), checked over the data by class
 * (issue 15, quality21: the calibration questions' false "covered" that a lexicon term carried). An entry is keyed
 * by its stem, so an entry whose stem is also an everyday word of another meaning reads that word as the entry's
 * terms ('dække' an expense and 'dæk' a tyre are both 'daek'); a group holds words of one meaning, not of one topic
 * (leave is no holiday, a conversation no note of one).
 */
import { describe, expect, it } from "vitest";
import { normaliseWord } from "./search.analyzer";
import { relatedTerms } from "./search.lexicon";

const related = (word: string) => relatedTerms(normaliseWord(word));

describe("the lexicon's entries", () => {
  it.each([
    // 'dække' / 'dækket' (an expense covered) stem like 'dæk' (a tyre, a deck)
    ["dæk", "refund"],
    // the English 'bill' stems like the Danish 'bil' (a car)
    ["bil", "faktura"],
    // 'kassere' (to discard) stems like 'kasse' (a box, a till)
    ["kasse", "slet"],
  ])("should key no entry by a stem an everyday word of another meaning shares: %s", (word, term) => {
    expect(related(word)).not.toContain(term);
  });

  it.each([
    // leave of absence is not a holiday (both are absence: 'fravær' stays beside each)
    ["orlov", "feri"],
    // a conversation is not the note of a phone call
    ["samtale", "notat"],
  ])("should group words of one meaning, not of one topic: %s", (word, term) => {
    expect(related(word)).not.toContain(term);
  });

  it("should keep the entries of one meaning", () => {
    expect(related("ferie")).toContain("sommerferi");
    expect(related("telefonnotat")).toContain("notat");
    expect(related("væk")).toContain("fravaer");
    expect(related("refunderes")).toContain("refusion");
    expect(related("billing")).toContain("faktura");
  });
});
