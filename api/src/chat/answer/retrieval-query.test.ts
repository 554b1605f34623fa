import { describe, expect, it } from "vitest";
import {
  buildRetrievalQuery,
  chooseRetrieval,
  looksLikeFollowUp,
  QUERY_MAX_CHARS,
  retrievalQueries,
} from "./retrieval-query";
import type { HistoryTurn, Passage } from "./types";

const passage = (over: Partial<Passage>): Passage => ({
  articleId: "a1",
  title: "Titel",
  headingPath: [],
  text: "Tekst.",
  score: 0.9,
  ...over,
});

/** passages written like the sample content's */
const COMPLAINT_DEADLINE = passage({
  articleId: "klager",
  title: "Klager over afgørelser og klagefrist",
  headingPath: ["Klagefristen"],
  text:
    "Klagefristen er 4 uger (28 dage) fra den dag, medlemmet har modtaget afgørelsen. Afgørelser sendt med " +
    "digital post anses for modtaget samme dag. Afgørelser sendt med almindelig post anses for modtaget 2 " +
    "arbejdsdage efter afsendelsen.",
});
const COMPLAINT_BOARD = passage({
  articleId: "klager",
  title: "Klager over afgørelser og klagefrist",
  headingPath: ["Trin i klagesagen"],
  text:
    "Fastholdes afgørelsen, sendes sagen til klageudvalget med en kort udtalelse. Klageudvalget træffer " +
    "afgørelse inden 8 uger efter, at det har modtaget sagen.",
});
const DEADLINES = passage({
  articleId: "frister",
  title: "Frister i sagsbehandlingen",
  headingPath: ["Oversigt over frister"],
  text: "Afgørelse i ansøgningssager: senest 20 arbejdsdage efter, at sagen er fuldt oplyst, så vi kan træffe afgørelse.",
});
const IT_SUPPORT = passage({
  articleId: "it",
  title: "IT-opstart for nye medarbejdere",
  headingPath: ["Support"],
  text:
    "IT-support kontaktes på lokal 200. Akutte problemer uden for arbejdstid meldes til vagtnummeret, der står " +
    "på bagsiden af dit adgangskort.",
});
const EXPENSES = passage({
  articleId: "udlaeg",
  title: "Udlæg og refusion af egne udgifter",
  headingPath: ["Hvem attesterer udlæg?"],
  text: "Udlæg op til 2.000 kr. attesteres af din nærmeste leder. Udlæg over 2.000 kr. attesteres af sekretariatschefen.",
});

const afterDeadline: HistoryTurn[] = [
  { role: "user", content: "Hvor lang er klagefristen for en afgørelse?" },
  { role: "assistant", content: "Klagefristen er 4 uger [1]." },
];

describe("retrieval-query", () => {
  it("should search a first question once, and a later one alone and with the previous user turns", () => {
    expect(retrievalQueries("Gælder det også for deltid?", [])).toEqual(["Gælder det også for deltid?"]);
    expect(retrievalQueries("Hvordan booker jeg et mødelokale?", afterDeadline)).toEqual([
      "Hvordan booker jeg et mødelokale?",
      "Hvordan booker jeg et mødelokale?\nHvor lang er klagefristen for en afgørelse?",
    ]);
  });

  it("should build the combined query from the question and the previous user turns, newest first", () => {
    const history: HistoryTurn[] = [
      { role: "user", content: "Hvordan behandles en klagesag?" },
      { role: "assistant", content: "Den behandles i tre trin [1]." },
      { role: "user", content: "Hvor lang er fristen for aktindsigt?" },
      { role: "assistant", content: "Syv arbejdsdage [2]." },
    ];
    const q = buildRetrievalQuery("og hvis sagen er kompliceret?", history);
    expect(q.split("\n")).toEqual([
      "og hvis sagen er kompliceret?",
      "Hvor lang er fristen for aktindsigt?",
      "Hvordan behandles en klagesag?",
    ]);
    expect(buildRetrievalQuery("  Hvad er feriereglerne? ", [])).toBe("Hvad er feriereglerne?");
    const long = buildRetrievalQuery("kort", [{ role: "user", content: "ord ".repeat(800) }]);
    expect(long.length).toBeLessThanOrEqual(QUERY_MAX_CHARS);
    expect(long.startsWith("kort\n")).toBe(true);
  });

  it("should read a continuing first word, or a back-reference in a fragment, as a cue, not the expletive 'det'", () => {
    for (const q of ["og hvad med aktindsigt?", "Hvad hvis den kommer for sent?", "What about part-time?"]) {
      expect(looksLikeFollowUp(q), q).toBe(true);
    }
    expect(looksLikeFollowUp("Koster det noget?")).toBe(true);
    expect(looksLikeFollowUp("hvem godkender den?")).toBe(true);
    // "det" as the expletive in a question of its own
    expect(looksLikeFollowUp("Hvad koster det at få et nyt adgangskort?")).toBe(false);
    expect(looksLikeFollowUp("Er det muligt at arbejde hjemmefra?")).toBe(false);
    expect(looksLikeFollowUp("Hvad skete der dengang i foreningen?")).toBe(false);
  });

  it("should use the combined query when its passage continues the earlier topic and holds the question's words", () => {
    // an elliptical follow-up: alone it finds another article
    const ellipsis = chooseRetrieval(
      "Og hvis afgørelsen kom med almindelig post?",
      afterDeadline,
      [DEADLINES],
      [COMPLAINT_DEADLINE, DEADLINES],
    );
    expect(ellipsis.choice).toBe("combined");
    // no "det", no "og": the passage found with the earlier turn holds both
    const board: HistoryTurn[] = [
      { role: "user", content: "Hvem behandler klagen, hvis sekretariatet fastholder afgørelsen?" },
      { role: "assistant", content: "Klageudvalget [1]." },
    ];
    expect(
      chooseRetrieval("Hvor lang tid har de til at træffe afgørelse?", board, [DEADLINES], [COMPLAINT_BOARD])
        .choice,
    ).toBe("combined");
    // nothing of its own to search for
    expect(chooseRetrieval("og hvad så?", afterDeadline, [], [COMPLAINT_DEADLINE]).choice).toBe("combined");
  });

  it("should search a question of its own alone, also with the expletive 'det' and when alone finds nothing", () => {
    // the expletive "det": the combined query finds the earlier topic, which holds none of the question's words
    expect(
      chooseRetrieval(
        "Hvad koster det at få et nyt adgangskort?",
        afterDeadline,
        [IT_SUPPORT],
        [COMPLAINT_DEADLINE, IT_SUPPORT],
      ).choice,
    ).toBe("alone");
    expect(
      chooseRetrieval("Er det muligt at få fri på sin fødselsdag?", afterDeadline, [], [COMPLAINT_DEADLINE])
        .choice,
    ).toBe("alone");
    // on another article
    expect(
      chooseRetrieval(
        "Hvem attesterer et udlæg på 3.000 kr.?",
        afterDeadline,
        [EXPENSES],
        [COMPLAINT_DEADLINE],
      ).choice,
    ).toBe("alone");
    // nothing found with the earlier turns either
    expect(chooseRetrieval("og hvad så?", afterDeadline, [], []).choice).toBe("alone");
  });
});
