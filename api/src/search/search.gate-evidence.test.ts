/**
 * The relevance gate's evidence of what a question leaves uncovered (issue 15, round 8), on a synthetic corpus: a
 * word only a related term stands for proves what that term proves (QueryConcept.evidenceIdf), and the model refitted
 * on that evidence declines a question that shares only common words with a passage. The passage's gate fields are
 * set as the index sets them (coverage, matchedIdf, matchedWords, questionWords and uncoveredIdf from coverageOf).
 */
import { describe, expect, it } from "vitest";
import { gateFields } from "./search.coverage";
import { CHAT_THRESHOLD } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import { coverOf, gateRelevanceOf, vocabularyOf } from "./search.test-helpers";

const ARTICLES = [
  "Kreditnotaer. En kreditnota over 5.000 kr. skal godkendes af økonomichefen, før den sendes.",
  "Udlæg. Udlæg skal godkendes af nærmeste leder, og bilaget skal vedlægges.",
  "Ferie. Ferie skal godkendes af lederen i god tid.",
  "Indkøb. Større indkøb skal godkendes af sekretariatschefen og bogføres.",
  "Rejser. Rejser skal godkendes på forhånd, og kvitteringer gemmes.",
  "Kontrakter. Kontrakter skal godkendes af bestyrelsen, når beløbet er stort.",
  "Sygdom. Melder du dig syg, skal du ringe til sekretariatet inden kl. 9. Fristen for at aflevere en lægeerklæring er 14 dage.",
  "Klager. Fristen for at klage er fire uger fra afgørelsen.",
  "Aktindsigt. Fristen for at svare på en anmodning om aktindsigt er syv arbejdsdage.",
  "Møder. Fristen for at sende dagsordenen er en uge før mødet.",
  "Sygdom og fravær. Er du syg, giver du besked til din leder. Fristen for sygemelding er samme dag.",
  "Løn. Lønnen udbetales den sidste bankdag i måneden og godkendes af økonomichefen.",
  "Arkiv. Sager arkiveres efter fem år, og arkivet godkendes årligt.",
  "Telefon. Telefonen besvares af sekretariatet i åbningstiden.",
  "Nyhedsbrev. Nyhedsbrevet sendes ud hver måned til alle medlemmer.",
  "Generalforsamling. Forslag skal være modtaget senest fire uger før generalforsamlingen.",
];

const vocabulary = vocabularyOf(ARTICLES);

/**
 * The gate's relevance of `text` for `question`. `evidence: false` reads every word at its own IDF (no evidence
 * IDF for a word only related terms stand for); `reported: false` leaves uncoveredIdf out (a retrieval that does
 * not report it: the previous model).
 */
function relevance(question: string, text: string, { evidence = true, reported = true } = {}): number {
  const q = analyseQuery(question, vocabulary);
  if (!evidence) for (const c of q.concepts) c.evidenceIdf = undefined;
  const { uncoveredIdf, ...rest } = gateFields(coverOf(q.concepts, text));
  return gateRelevanceOf(reported ? { ...rest, uncoveredIdf } : rest);
}

const THRESHOLD = CHAT_THRESHOLD; // the chat's DEFAULT_MIN_SCORE

describe("the gate's uncovered evidence", () => {
  it("should read a word only a related term stands for at that term's IDF, not as the rarest word", () => {
    const c = analyseQuery("Hvem approver en kreditnota?", vocabulary).concepts;
    const approver = c.find((x) => x.word === "approver");
    // no article has 'approver'; the lexicon reads it as 'godkende', which most articles have
    expect(approver?.idf).toBe(vocabulary.idf(0));
    expect(approver?.evidenceIdf).toBeLessThan(1);
    // a word the articles have keeps its own IDF
    const kreditnota = c.find((x) => x.word === "kreditnota");
    expect(kreditnota?.evidenceIdf).toBe(kreditnota?.idf);
  });

  it("should let an on-topic question in an English synonym of the article's term pass", () => {
    const question = "Hvem approver en kreditnota til en kunde?";
    expect(relevance(question, ARTICLES[0])).toBeGreaterThanOrEqual(THRESHOLD);
    // read as the rarest word, the half 'godkende' leaves of 'approver' would weigh as much as a missing topic
    expect(relevance(question, ARTICLES[0], { evidence: false })).toBeLessThan(THRESHOLD);
  });

  it("should decline an office question that shares only common words with a passage ('fristen', 'aflevere')", () => {
    const question = "Hvad er fristen for at aflevere en rejseafregning?";
    expect(relevance(question, ARTICLES[6])).toBeLessThan(THRESHOLD);
    // the previous model let it pass on the two common words
    expect(relevance(question, ARTICLES[6], { reported: false })).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it("should still pass the question the passage answers, and judge a passage without the evidence as before", () => {
    const question = "Hvad er fristen for at melde sig syg?";
    expect(relevance(question, ARTICLES[6])).toBeGreaterThanOrEqual(0.5);
    expect(relevance(question, ARTICLES[6], { reported: false })).toBeGreaterThanOrEqual(0.5);
    expect(relevance("Hvem skal godkende min efteruddannelse?", ARTICLES[2])).toBeLessThan(THRESHOLD);
  });
});
