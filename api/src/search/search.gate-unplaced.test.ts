/**
 * The relevance gate's view of a word nothing reads (issue 15, round 9), on a synthetic corpus: a question word no
 * article has, no related term or compound part stands for and no Danish dictionary knows (a misspelling too far
 * from any indexed word, a number, an abbreviation) is how the question was typed, not a topic the articles lack:
 * a passage lacking it leaves nothing uncovered (QueryConcept.unplaced, UNPLACED_EVIDENCE_IDF). A real Danish word
 * no article has still weighs as the rarest word there is, so a question about it is declined.
 */
import { describe, expect, it } from "vitest";
import { CHAT_THRESHOLD } from "./search.passage-relevance";
import { analyseQuery, UNPLACED_EVIDENCE_IDF } from "./search.query";
import { gateRelevance, vocabularyOf } from "./search.test-helpers";

const ARTICLES = [
  "Månedsafslutning. Bogføringen for måneden afsluttes senest den 8. i den følgende måned af økonomimedarbejderen.",
  "Udlæg. Udlæg skal godkendes af nærmeste leder, og bilaget skal vedlægges.",
  "Ferie. Ferie skal godkendes af lederen i god tid.",
  "Indkøb. Større indkøb skal godkendes af sekretariatschefen og bogføres.",
  "Rejser. Rejser skal godkendes på forhånd, og kvitteringer gemmes.",
  "Kontrakter. Kontrakter skal godkendes af bestyrelsen, når beløbet er stort.",
  "Klager. Fristen for at klage er fire uger fra afgørelsen.",
  "Aktindsigt. Fristen for at svare på en anmodning om aktindsigt er syv arbejdsdage.",
  "Møder. Fristen for at sende dagsordenen er en uge før mødet.",
  "Løn. Lønnen udbetales den sidste bankdag i måneden og godkendes af økonomichefen.",
  "Arkiv. Sager arkiveres efter fem år, og arkivet godkendes årligt.",
  "Telefon. Telefonen besvares af sekretariatet i åbningstiden.",
  "Nyhedsbrev. Nyhedsbrevet sendes ud hver måned til alle medlemmer.",
  "Backup. Serverens backup tages hver nat og gemmes i tre måneder.",
];

const vocabulary = vocabularyOf(ARTICLES);

/** The gate's relevance of `text` for `question`; `unplaced: false` weighs every word nothing reads as missing. */
function relevance(question: string, text: string, { unplaced = true } = {}): number {
  const q = analyseQuery(question, vocabulary);
  if (!unplaced) for (const c of q.concepts) if (c.unplaced) c.evidenceIdf = c.idf;
  return gateRelevance(q.concepts, text);
}

const THRESHOLD = CHAT_THRESHOLD; // the chat's DEFAULT_MIN_SCORE

describe("a word nothing reads", () => {
  it("should mark a misspelling too far off, a number and an abbreviation, never a Danish word", () => {
    const concepts = (question: string) => analyseQuery(question, vocabulary).concepts;
    for (const word of ["qxbrtl", "48213", "bst"]) {
      const [c] = concepts(word);
      expect(c?.unplaced).toBe(true);
      expect(c?.evidenceIdf).toBe(UNPLACED_EVIDENCE_IDF);
    }
    // Danish words no article has ('efteruddannelse'; 'koerer' is 'kører' typed without æøå) keep the highest IDF
    for (const word of ["efteruddannelse", "koerer"]) {
      const [c] = concepts(word);
      expect(c?.unplaced).toBe(false);
      expect(c?.evidenceIdf).toBe(vocabulary.idf(0));
    }
    expect(concepts("backup")[0]?.unplaced).toBe(false);
  });

  it("should let a question with a badly misspelt word pass on the passage that covers the rest", () => {
    const question = "hvornår afsluttes måndsafsltingen";
    expect(
      analyseQuery(question, vocabulary).concepts.find((c) => c.word === "måndsafsltingen")?.unplaced,
    ).toBe(true);
    expect(relevance(question, ARTICLES[0])).toBeGreaterThanOrEqual(THRESHOLD);
    // weighed as a topic the articles lack, the misspelling declined it
    expect(relevance(question, ARTICLES[0], { unplaced: false })).toBeLessThan(THRESHOLD);
  });

  it("should still decline a question whose missing word is a Danish word", () => {
    expect(relevance("hvornår afsluttes efteruddannelsen", ARTICLES[0])).toBeLessThan(THRESHOLD);
  });

  it("should read a compound of Danish words with a short head as a word the question means (round 22)", () => {
    // 'pizzadej' (pizza + dej), 'fredagsbar' (fredag-s + bar), 'cykelholdsløb' (cykelhold-s + løb): no dictionary
    // entry, and a head too short for a compound split, but a thing the question is about, not a misspelling
    for (const word of ["pizzadej", "fredagsbar", "cykelholdsløb"]) {
      const c = analyseQuery(word, vocabulary).concepts.find((x) => x.word === word);
      expect(c?.unplaced, word).toBe(false);
      expect(c?.evidenceIdf, word).toBe(vocabulary.idf(0));
    }
    // so a passage lacking it leaves the question's topic uncovered, unlike a misspelling nothing reads
    const about = (word: string) => relevance(`hvornår sendes nyhedsbrevet om ${word} ud`, ARTICLES[12]);
    expect(about("qxbrtl")).toBeCloseTo(relevance("hvornår sendes nyhedsbrevet ud", ARTICLES[12]), 2);
    expect(about("fredagsbar")).toBeLessThan(about("qxbrtl") - 0.1);
  });
});
