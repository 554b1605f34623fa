/**
 * The relevance gate's view of a compound the index does not have (issue 15, quality20), on a synthetic corpus: the
 * query reads it as its parts ('mødelokale' → 'møde' + 'lokale'), each a concept with its own IDF. As evidence that
 * the question's topic is in a passage, one part alone proves little (a 'mødelokale' is not the 'lokale' booked for
 * a general assembly): the gate counts a part only in a passage that also holds another part
 * (GATE_COMPOUND_PARTS_TOGETHER). Ranking still counts each part alone.
 */
import { describe, expect, it } from "vitest";
import { relevances } from "../knowledge/knowledge.retrieval";
import { analyse } from "./search.analyzer";
import { coverageOf, GATE_LEXICON_EXPONENT, gateConcepts, gateFields } from "./search.coverage";
import { CHAT_THRESHOLD } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import { gateRelevance, vocabularyOf } from "./search.test-helpers";
import type { RetrievalResult, RetrievedPassage } from "./search.types";

const ARTICLES = [
  "Generalforsamling. Sekretariatet booker et lokale til generalforsamlingen et halvt år før.",
  "Bestyrelsesmøder. Mødet holdes i lokalet på første sal, og bestyrelsen booker det selv.",
  "Møder. Dagsordenen til mødet sendes en uge før.",
  "Referat. Referatet af mødet godkendes på næste møde.",
  "Udvalg. Udvalgets møder holdes fire gange om året.",
  "Klager. Fristen for at klage er fire uger fra afgørelsen.",
  "Aktindsigt. Fristen for at svare på en anmodning om aktindsigt er syv arbejdsdage.",
  "Løn. Lønnen udbetales den sidste bankdag i måneden.",
  "Arkiv. Sager arkiveres efter fem år.",
  "Telefon. Telefonen besvares af sekretariatet i åbningstiden.",
  "Nyhedsbrev. Nyhedsbrevet sendes ud hver måned til alle medlemmer.",
  "Backup. Serverens backup tages hver nat og gemmes i tre måneder.",
];

const vocabulary = vocabularyOf(ARTICLES);

/** The gate's relevance of `text` for `question`; `together: false` counts a compound's part alone. */
function relevance(question: string, text: string, { together = true } = {}): number {
  const q = analyseQuery(question, vocabulary);
  return gateRelevance(gateConcepts(q.concepts, GATE_LEXICON_EXPONENT, together), text);
}

const THRESHOLD = CHAT_THRESHOLD; // the chat's DEFAULT_MIN_SCORE
const QUESTION = "Hvordan booker jeg et mødelokale?";

describe("a compound the index does not have, for the gate", () => {
  it("should read the question's compound as its parts", () => {
    const words = analyseQuery(QUESTION, vocabulary).concepts.map((c) => c.word.toLowerCase());
    expect(words).toEqual(["booker", "møde", "lokale"]);
    const parts = analyseQuery(QUESTION, vocabulary).concepts.filter((c) => c.compound);
    expect(parts.map((c) => c.word.toLowerCase())).toEqual(["møde", "lokale"]);
  });

  it("should not let the compound's head alone carry a passage about another thing", () => {
    // the general assembly's room: 'booker' and 'lokale', no meeting room
    expect(relevance(QUESTION, ARTICLES[0])).toBeLessThan(THRESHOLD);
    // each part counted alone (ranking's view), the head carried it
    expect(relevance(QUESTION, ARTICLES[0], { together: false })).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it("should still pass a passage that holds the compound's parts", () => {
    expect(relevance(QUESTION, ARTICLES[1])).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it("should leave ranking's view of the parts unchanged", () => {
    const q = analyseQuery(QUESTION, vocabulary);
    const own = { all: new Set(analyse(ARTICLES[0])), headings: new Set<string>() };
    expect(coverageOf(q.concepts, own).coverage).toBeGreaterThan(0);
    expect(coverageOf(gateConcepts(q.concepts, GATE_LEXICON_EXPONENT, true), own).matched).toBeLessThan(
      coverageOf(q.concepts, own).matched,
    );
  });
});

describe("relevances with a compound's parts", () => {
  /** A retrieval of `texts` for `question` as search.retrieve.ts reports it: both views of the evidence. */
  function retrieval(question: string, texts: string[]): RetrievalResult {
    const q = analyseQuery(question, vocabulary);
    const passages = texts.map((text, i): RetrievedPassage => {
      const own = { all: new Set(analyse(text)), headings: new Set<string>() };
      return {
        id: `a${i}#0`,
        articleId: `a${i}`,
        title: "",
        category: "",
        headingPath: [],
        text,
        position: 0,
        wordCount: 10,
        score: 1,
        ...gateFields(coverageOf(gateConcepts(q.concepts), own)),
        compoundsWhole: gateFields(coverageOf(gateConcepts(q.concepts, GATE_LEXICON_EXPONENT, true), own)),
      };
    });
    return { passages, mode: "bm25", query: q.info };
  }

  it("should decline a question only a compound's head covers", () => {
    expect(Math.max(...relevances(retrieval(QUESTION, [ARTICLES[0]])))).toBeLessThan(THRESHOLD);
  });

  it("should keep the relevance of a passage holding one part when the question is covered", () => {
    const [both, head] = relevances(retrieval(QUESTION, [ARTICLES[1], ARTICLES[0]]));
    expect(both).toBeGreaterThanOrEqual(THRESHOLD);
    // the part alone still counts for which passages are quoted (with the parts only together it would not pass)
    expect(head).toBeGreaterThanOrEqual(THRESHOLD);
    expect(relevance(QUESTION, ARTICLES[0])).toBeLessThan(THRESHOLD);
  });
});
