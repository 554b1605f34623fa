/**
 * The relevance gate's view of a derivation ending in a question word (issue 15, quality21), on a synthetic corpus:
 * 'medarbejder' ends in 'arbejde', 'indhold' in 'hold', 'indgår' in 'går', but after a particle or a prefix the word
 * names another thing (a 'medarbejder' is no 'arbejde'), unlike a compound ending in it ('hjemmearbejde' is a kind of
 * 'arbejde'). Ranking and the quotes count such a derivation like a compound ending in the word (a particle verb is
 * often written apart: 'meldte sig ind' for 'indmeldt'); whether the question is covered at all is decided without
 * it (GATE_DERIVATIONS_APART).
 */
import { describe, expect, it } from "vitest";
import { relevances } from "../knowledge/knowledge.retrieval";
import { analyse } from "./search.analyzer";
import { coverageOf, GATE_LEXICON_EXPONENT, gateConcepts, gateFields } from "./search.coverage";
import { relevanceOf } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import type { RetrievalResult, RetrievedPassage } from "./search.types";
import { Vocabulary } from "./search.vocabulary";

const ARTICLES = [
  "Udmeldelse. Ved udmeldelse sørger økonomimedarbejderen for, at reglerne følges, og opkrævningen stopper samme måned.",
  "Hjemmearbejde. Reglerne for hjemmearbejde: du kan arbejde hjemmefra en dag om ugen efter aftale med din leder.",
  "Medarbejdere. Nye medarbejdere får en mentor den første måned.",
  "Samarbejde. Sekretariatet har et tæt samarbejde med bestyrelsen.",
  "Klager. Fristen for at klage er fire uger fra afgørelsen.",
  "Aktindsigt. Fristen for at svare på en anmodning om aktindsigt er syv arbejdsdage.",
  "Løn. Lønnen udbetales den sidste bankdag i måneden.",
  "Arkiv. Sager arkiveres efter fem år.",
  "Telefon. Telefonen besvares af sekretariatet i åbningstiden.",
  "Nyhedsbrev. Nyhedsbrevet sendes ud hver måned til alle medlemmer.",
  "Backup. Serverens backup tages hver nat og gemmes i tre måneder.",
  "Referat. Referatet af mødet godkendes på næste møde.",
];

const vocabulary = new Vocabulary();
for (const content of ARTICLES) vocabulary.count({ title: "", category: "", tags: [], content }, 1);

/** The gate's relevance of `text` for `question`; `whole`: the view deciding whether the question is covered. */
function relevance(question: string, text: string, { whole = true } = {}): number {
  const q = analyseQuery(question, vocabulary);
  const concepts = gateConcepts(q.concepts, GATE_LEXICON_EXPONENT, whole);
  const cover = coverageOf(concepts, { all: new Set(analyse(text)), headings: new Set() });
  return relevanceOf(gateFields(cover) as RetrievedPassage, [], 0, false, 0);
}

const THRESHOLD = 0.25; // the chat's DEFAULT_MIN_SCORE
const QUESTION = "Hvad er reglerne for at arbejde fra udlandet i en måned?";

describe("a derivation ending in a question word", () => {
  it("should tell a derivation after a particle or a prefix from a compound ending in the word", () => {
    const [arbejde] = analyseQuery("arbejde", vocabulary).concepts;
    // the compounds ending in the word are all still searched (ranking)
    expect(arbejde.terms).toEqual(
      expect.arrayContaining(["medarbejd", "oekonomimedarbejd", "samarbejd", "hjemmearbejd"]),
    );
    expect([...(arbejde.derived ?? [])].sort()).toEqual(["medarbejd", "oekonomimedarbejd", "samarbejd"]);
  });

  it("should not let a derivation carry a passage about another thing", () => {
    // 'reglerne', 'måned' and the 'økonomimedarbejder': no word for working
    expect(relevance(QUESTION, ARTICLES[0])).toBeLessThan(THRESHOLD);
    // counted as a compound ending in 'arbejde' (the gate's view of each passage), it carried the question
    expect(relevance(QUESTION, ARTICLES[0], { whole: false })).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it("should still pass a passage with the word or a compound ending in it", () => {
    expect(relevance(QUESTION, ARTICLES[1])).toBeGreaterThanOrEqual(THRESHOLD);
    expect(
      relevance(QUESTION, "Hjemmearbejde. Reglerne for hjemmearbejde gælder en måned ad gangen."),
    ).toBeGreaterThanOrEqual(THRESHOLD);
  });
});

describe("relevances with a derivation", () => {
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

  it("should decline a question only a derivation covers", () => {
    expect(Math.max(...relevances(retrieval(QUESTION, [ARTICLES[0]])))).toBeLessThan(THRESHOLD);
  });

  it("should keep a derivation's relevance when the question is covered", () => {
    const [own, derived] = relevances(retrieval(QUESTION, [ARTICLES[1], ARTICLES[0]]));
    expect(own).toBeGreaterThanOrEqual(THRESHOLD);
    expect(derived).toBeGreaterThanOrEqual(THRESHOLD);
  });
});
