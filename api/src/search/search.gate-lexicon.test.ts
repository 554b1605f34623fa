/**
 * The relevance gate's view of the curated lexicon (issue 15, round 13; search.coverage.ts gateConcepts): a question
 * word the articles hold only as the lexicon's synonym covers it at LEXICON_WEIGHT 0.5 in ranking (the text with
 * staff's own word ranks first), but as evidence that the question's topic is there the gate reads it firmer
 * (GATE_LEXICON_EXPONENT): a one-word question in staff's synonym of an article's term was declined at coverage 0.5.
 * Synthetic corpus; the words are the lexicon's (lexicon/da.json: mentor / makker, stedfortræder / vikar).
 */
import { describe, expect, it } from "vitest";
import { GATE_LEXICON_EXPONENT, gateConcepts } from "./search.coverage";
import { KnowledgeIndex } from "./search.index";
import { CHAT_THRESHOLD, relevanceOf } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import { buildArticle, gateRelevance, vocabularyOf } from "./search.test-helpers";
import type { RetrievedPassage } from "./search.types";

const ARTICLES = [
  "Nye medarbejdere. Alle nye medarbejdere får en mentor fra teamet de første tre måneder. Mentoren viser systemerne.",
  "Udlæg. Udlæg skal godkendes af nærmeste leder, og bilaget skal vedlægges.",
  "Ferie. Ferie skal godkendes af lederen i god tid.",
  "Klager. Fristen for at klage er fire uger fra afgørelsen.",
  "Aktindsigt. Fristen for at svare på en anmodning om aktindsigt er syv arbejdsdage.",
  "Møder. Fristen for at sende dagsordenen er en uge før mødet.",
  "Stedfortræder. Er formanden fraværende, leder næstformanden mødet som stedfortræder.",
  "Løn. Lønnen udbetales den sidste bankdag i måneden og godkendes af økonomichefen.",
  "Arkiv. Sager arkiveres efter fem år, og arkivet godkendes årligt.",
  "Telefon. Telefonen besvares af sekretariatet i åbningstiden.",
  "Nyhedsbrev. Nyhedsbrevet sendes ud hver måned til alle medlemmer.",
];
const vocabulary = vocabularyOf(ARTICLES);

const THRESHOLD = CHAT_THRESHOLD; // the chat's DEFAULT_MIN_SCORE

/** The gate's relevance of `text` for `question`, curated lexicon terms read at `exponent` (1: as ranking does). */
function relevance(question: string, text: string, exponent = GATE_LEXICON_EXPONENT): number {
  const q = analyseQuery(question, vocabulary);
  return gateRelevance(gateConcepts(q.concepts, exponent), text);
}

describe("the gate's view of the curated lexicon", () => {
  it("should mark the lexicon's terms of a question word, and no others", () => {
    const [makker] = analyseQuery("makker", vocabulary).concepts;
    expect(makker.curated?.has("mentor")).toBe(true);
    const [mentor] = analyseQuery("mentor", vocabulary).concepts;
    expect(mentor.curated?.has("mentor") ?? false).toBe(false);
  });

  it("should pass a one-word question whose word the article holds only as the lexicon's synonym", () => {
    for (const [question, article] of [
      ["makker", ARTICLES[0]],
      ["vikar", ARTICLES[6]],
    ]) {
      expect(relevance(question, article)).toBeGreaterThanOrEqual(THRESHOLD);
      // read at the lexicon's ranking weight, half the word was uncovered: "not in the knowledge base"
      expect(relevance(question, article, 1)).toBeLessThan(THRESHOLD);
    }
  });

  it("should leave ranking's weights alone, and still decline a question whose telling word no article has", () => {
    const [makker] = analyseQuery("makker", vocabulary).concepts;
    expect(makker.weights[makker.terms.indexOf("mentor")]).toBe(0.5);
    expect(relevance("Hvad er deadline for selvangivelsen?", ARTICLES[3])).toBeLessThan(THRESHOLD);
  });

  it("should hand the chat the gate's view: retrieval's coverage of a passage reads the lexicon firmer", async () => {
    const index = new KnowledgeIndex();
    await index.rebuildFrom(
      ARTICLES.map((text, i) => {
        const [title, body] = text.split(/\. (.*)/s);
        return buildArticle({ id: `a-${i}`, title, content: `# ${title}\n\n${body}\n` });
      }),
    );
    const res = await index.retrieve("makker", { k: 3 });
    const best = res.passages.find((p) => p.articleId === "a-0");
    // ranking covers 'makker' by 'mentor' at 0.5; the gate's fields read it at 0.5 ** GATE_LEXICON_EXPONENT
    expect(best?.coverage).toBeCloseTo(0.5 ** GATE_LEXICON_EXPONENT, 5);
    expect(relevanceOf(best as RetrievedPassage, [], 0, false, 0)).toBeGreaterThanOrEqual(THRESHOLD);
  });
});
