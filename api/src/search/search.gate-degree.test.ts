/**
 * The relevance gate's view of a question asking for a degree (issue 15, round 23), on a synthetic corpus: in
 * "hvor stor skal egenkapitalen være?" the word `stor` belongs to the question word ("hvor stor" asks for a size), not
 * to what the question is about. No article holds `stor` beside the topic, so it weighed as a telling word left
 * uncovered and declined questions in staff's words; the gate now leaves such a degree word out
 * (QueryConcept.degree, search.analyzer.ts DEGREE_WORDS, gateConcepts in search.coverage.ts), unless the curated
 * lexicon reads it as the articles' terms ("hvor længe" → frist). Ranking reads every word as before.
 */
import { describe, expect, it } from "vitest";
import { gateConcepts } from "./search.coverage";
import { CHAT_THRESHOLD } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import { gateRelevance, vocabularyOf } from "./search.test-helpers";

const ARTICLES = [
  "Nøgletal. Egenkapitalen bør svare til mindst 6 måneders faste udgifter.",
  "Flertal. Vedtægtsændringer kræver 2/3 af de afgivne stemmer, og almindelige beslutninger træffes ved simpelt flertal.",
  "Udlæg. Udlæg skal godkendes af nærmeste leder, og bilaget skal vedlægges.",
  "Ferie. Ferie skal godkendes af lederen i god tid, også når den er lang.",
  "Indkøb. Større indkøb skal godkendes af sekretariatschefen og bogføres.",
  "Kontrakter. Kontrakter skal godkendes af bestyrelsen, når beløbet er stort.",
  "Klager. Fristen for at klage er fire uger fra afgørelsen.",
  "Aktindsigt. Fristen for at svare på en anmodning om aktindsigt er syv arbejdsdage.",
  "Møder. Fristen for at sende dagsordenen er en uge før mødet.",
  "Løn. Lønnen udbetales den sidste bankdag i måneden og godkendes af økonomichefen.",
  "Arkiv. Sager arkiveres efter fem år, og arkivet godkendes årligt.",
  "Backup. Serverens backup tages hver nat og gemmes i tre måneder.",
];

const vocabulary = vocabularyOf(ARTICLES);

/** The gate's relevance of `text` for `question`, as retrieval computes it (gateConcepts of the question). */
function relevance(question: string, text: string): number {
  return gateRelevance(gateConcepts(analyseQuery(question, vocabulary).concepts), text);
}

const THRESHOLD = CHAT_THRESHOLD; // the chat's DEFAULT_MIN_SCORE

describe("a degree word of the question word", () => {
  it("should mark a gradable word right after 'hvor', in any of its forms, and no other word", () => {
    const degree = (question: string) =>
      analyseQuery(question, vocabulary)
        .concepts.filter((c) => c.degree)
        .map((c) => c.word);
    expect(degree("hvor stor skal egenkapitalen være")).toEqual(["stor"]);
    expect(degree("Hvor stort et flertal kræver en vedtægtsændring?")).toEqual(["stort"]);
    expect(degree("hvor hoej er egenkapitalen")).toEqual(["hoej"]); // typed without æøå
    // the same words elsewhere are what the question is about
    expect(degree("er egenkapitalen stor nok")).toEqual([]);
    expect(degree("hvornår er beløbet stort")).toEqual([]);
  });

  it("should let a question asking 'hvor stor' pass on the passage that answers it", () => {
    expect(relevance("hvor stor skal egenkapitalen være", ARTICLES[0])).toBeGreaterThanOrEqual(THRESHOLD);
    expect(
      relevance("Hvor stort et flertal skal der til ved vedtægtsændringer?", ARTICLES[1]),
    ).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it("should leave the degree word out of the gate's view only", () => {
    const q = analyseQuery("hvor stor skal egenkapitalen være", vocabulary);
    expect(q.concepts.map((c) => c.word)).toEqual(["stor", "egenkapitalen"]); // ranking reads both
    expect(gateConcepts(q.concepts).map((c) => c.word)).toEqual(["egenkapitalen"]);
  });

  it("should keep a degree word the curated lexicon reads as the articles' terms", () => {
    // 'længe' → frist (lexicon/da.json): in the secretariat's articles asking how long is asking for a deadline
    const q = analyseQuery("hvor længe er fristen for aktindsigt", vocabulary);
    expect(q.concepts.find((c) => c.word === "længe")?.degree).toBe(true);
    expect(gateConcepts(q.concepts).map((c) => c.word)).toContain("længe");
  });

  it("should still decline a question about something no article names", () => {
    expect(relevance("hvor stor er kantinen", ARTICLES[0])).toBeLessThan(THRESHOLD);
    expect(relevance("hvor gammel skal man være for at få kørekort", ARTICLES[9])).toBeLessThan(THRESHOLD);
  });
});
