/**
 * The relevance gate's view of a noun naming the kind of fact asked for (issue 15, round 24), on a synthetic corpus:
 * in "hvad er reglerne for rygning på kontoret?" the word `reglerne` says that a rule answers, as "hvor stor" says
 * that a size does; the topic is what follows "for". Nearly every article states rules and deadlines, so an
 * off-topic question passed on "regler" or "frist" matched in a passage about another topic. The gate now leaves
 * such a noun out (QueryConcept.kind, search.analyzer.ts ASKED_KIND_WORDS, gateConcepts in search.coverage.ts), with
 * a "sidste" right before it ("sidste frist for"). Ranking reads every word as before.
 */
import { describe, expect, it } from "vitest";
import { gateConcepts } from "./search.coverage";
import { CHAT_THRESHOLD } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import { gateRelevance, vocabularyOf } from "./search.test-helpers";

const ARTICLES = [
  "Klager. Fristen for at klage er fire uger fra afgørelsen. Reglerne for klager står i vedtægterne.",
  "Aktindsigt. Fristen for at svare på en anmodning om aktindsigt er syv arbejdsdage.",
  "Møder. Fristen for at sende dagsordenen er en uge før mødet, efter reglerne i forretningsordenen.",
  "Udlæg. Reglerne for udlæg: udlæg skal godkendes af nærmeste leder, og bilaget skal vedlægges.",
  "Sikkerhed. Reglerne for computeren: lås skærmen, når du forlader kontoret, og brug aldrig private mails.",
  "IT-opstart. Sekretariatschefen bestiller udstyr senest 10 arbejdsdage før den nye medarbejders første dag.",
  "Kontingent. Fristen for betaling er 30 dage, og reglerne for rykkere gælder for alle medlemmer.",
  "Journalisering. Dokumenter journaliseres senest en arbejdsdag efter modtagelsen, efter reglerne.",
  "Backup. Serverens backup tages hver nat og gemmes i tre måneder.",
  "Budget. Budgettet vedtages af bestyrelsen i november.",
];

const vocabulary = vocabularyOf(ARTICLES);

/** The gate's relevance of `text` for `question`, as retrieval computes it (gateConcepts of the question). */
function relevance(question: string, text: string): number {
  return gateRelevance(gateConcepts(analyseQuery(question, vocabulary).concepts), text);
}

const THRESHOLD = CHAT_THRESHOLD; // the chat's DEFAULT_MIN_SCORE

const kinds = (question: string) =>
  analyseQuery(question, vocabulary)
    .concepts.filter((c) => c.kind)
    .map((c) => c.word);

describe("a noun naming the kind of fact asked for", () => {
  it("should mark a rule or deadline noun followed by 'for' or 'om', with a 'sidste' before it, and no other", () => {
    expect(kinds("Hvad er reglerne for rygning på kontoret?")).toEqual(["reglerne"]);
    expect(kinds("Hvilke regler gælder for sociale medier i arbejdstiden?")).toEqual(["regler"]);
    expect(kinds("Hvornår er sidste frist for at bestille julegaver?")).toEqual(["sidste", "frist"]);
    expect(kinds("hvad er fristen om aktindsigt")).toEqual(["fristen"]);
    // without the link the noun is what the question is about
    expect(kinds("Hvad er fristen?")).toEqual([]);
    expect(kinds("Hvornår udløber fristen, hvis den falder i en weekend?")).toEqual([]);
    expect(kinds("Kan fristen forlænges for et medlem?")).toEqual([]);
  });

  it("should mark every inflection by the analyser's stem, not by a list of forms", () => {
    // forms a hand-written list of inflections left out; the stem is the one rule
    expect(kinds("Hvilke tidsfrister gælder for indberetning af kørsel?")).toEqual(["tidsfrister"]);
    expect(kinds("Hvad er tidsfristerne for julegaver?")).toEqual(["tidsfristerne"]);
    expect(kinds("Hvad er reglen om hunde på kontoret?")).toEqual(["reglen"]);
    expect(kinds("Hvad er kravene for fleksjob?")).toEqual(["kravene"]);
  });

  it("should leave the kind noun out of the gate's view only", () => {
    const q = analyseQuery("Hvad er reglerne for rygning på kontoret?", vocabulary);
    expect(q.concepts.map((c) => c.word)).toContain("reglerne"); // ranking reads it
    expect(gateConcepts(q.concepts).map((c) => c.word)).not.toContain("reglerne");
  });

  it("should keep the kind noun when nothing else is asked about", () => {
    // "hvad er fristen for det?" (a follow-up read alone): the noun is all the topic there is
    const q = analyseQuery("Hvad er fristen for det?", vocabulary);
    expect(q.concepts.find((c) => c.word === "fristen")?.kind).toBe(true);
    expect(gateConcepts(q.concepts).map((c) => c.word)).toEqual(["fristen"]);
    expect(relevance("Hvad er fristen for det?", ARTICLES[0])).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it("should decline an off-topic question that shares only the rule or deadline noun and the setting", () => {
    expect(relevance("Hvad er reglerne for rygning på kontoret?", ARTICLES[4])).toBeLessThan(THRESHOLD);
    expect(relevance("Hvornår er sidste frist for at bestille julegaver?", ARTICLES[5])).toBeLessThan(
      THRESHOLD,
    );
  });

  it("should still let a question about a topic the passage states pass", () => {
    expect(relevance("Hvad er fristen for at klage?", ARTICLES[0])).toBeGreaterThanOrEqual(THRESHOLD);
    expect(relevance("Hvad er reglerne for udlæg?", ARTICLES[3])).toBeGreaterThanOrEqual(THRESHOLD);
    expect(relevance("hvad er fristen for aktindsigt", ARTICLES[1])).toBeGreaterThanOrEqual(THRESHOLD);
  });
});
