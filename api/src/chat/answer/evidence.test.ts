/** The sentence evidence's classes of failure (evidence.ts), each through the quote choice it decides. */
import { describe, expect, it } from "vitest";
import { MIN_STEM_LENGTH, STEM_LENGTH, stemOf } from "./evidence";
import { passagesToQuote } from "./quotes";
import type { Passage } from "./types";

const passage = (over: Partial<Passage>): Passage => ({
  articleId: "a",
  title: "Henvendelser",
  headingPath: [],
  text: "Tekst.",
  score: 0.9,
  ...over,
});

describe("sentence evidence (evidence.ts)", () => {
  it("should compare a word on its stem without the inflection ending (svaret/svar, meldte/indmeldelse, nummer/personnumre)", () => {
    // class: a 5-letter cut kept the ending's e or t ("svare", "meldt", "numme"), so the other forms of the word in
    // the answering sentence did not match
    expect(stemOf("svaret")).toBe("svar");
    expect(stemOf("meldte")).toBe("meld");
    expect(stemOf("nummer")).toBe("num");
    expect(stemOf("slette")).toBe("slet");
    expect(stemOf("sagen")).toBe("sag");
    // a long word is still compared on its first STEM_LENGTH letters (klagefristen, klagen), a short stem on
    // MIN_STEM_LENGTH
    expect(stemOf("klagefristen")).toHaveLength(STEM_LENGTH);
    expect(stemOf("søge").length).toBeGreaterThanOrEqual(MIN_STEM_LENGTH);
  });

  it("should quote the section whose sentence holds another form of the question's word", () => {
    const question = "Hvornår sender vi svaret?";
    const relevant = [
      passage({ headingPath: ["Indledning"], text: "Sagen oprettes i systemet.", score: 0.9 }),
    ];
    const retrieved = [
      ...relevant,
      passage({ headingPath: ["Kvittering"], text: "Vi sender en kvittering inden 2 dage.", score: 0.1 }),
      passage({ headingPath: ["Afslutning"], text: "Et svar sendes inden 10 dage.", score: 0.1 }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 2, question);
    expect(chosen.map((p) => p.headingPath.join())).toEqual(["Afslutning", "Indledning"]);
  });

  it("should quote the section naming what something must contain when the question asks what goes into it", () => {
    // class: "hvad skal med i brevet/svaret?" — the answering section is headed by its content ("Afgørelsens
    // indhold", "Hvad skal svaret indeholde?") and its list items repeat no word of the question
    const question = "Hvad skal med i brevet til medlemmet?";
    const relevant = [
      passage({
        headingPath: ["Fejl i brevet"],
        text: "Et brev med fejl til medlemmet rettes straks.",
        score: 0.9,
      }),
    ];
    const retrieved = [
      ...relevant,
      passage({ headingPath: ["Partshøring"], text: "Medlemmet høres, før brevet sendes.", score: 0.1 }),
      passage({
        headingPath: ["Brevets indhold"],
        text: "- en begrundelse\n- en klagevejledning",
        score: 0.1,
      }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 2, question);
    expect(chosen.map((p) => p.headingPath.join())).toContain("Brevets indhold");
  });

  it("should read a time written in words (to uger, tre måneder) as stating a time, like one in digits", () => {
    // class: Danish texts write small numbers as words; a question asking when or how long was answered by the
    // section stating "4 uger" but not by the one stating "fire uger"
    const question = "Hvornår skal referatet være klar?";
    const relevant = [
      passage({ headingPath: ["Indledning"], text: "Referatet skrives af sekretæren.", score: 0.9 }),
    ];
    const retrieved = [
      ...relevant,
      passage({ headingPath: ["Godkendelse"], text: "Referatet godkendes på næste møde.", score: 0.1 }),
      passage({ headingPath: ["Udsendelse"], text: "Referatet sendes ud efter to uger.", score: 0.1 }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 2, question);
    expect(chosen.map((p) => p.headingPath.join())).toEqual(["Udsendelse", "Indledning"]);
  });

  it("should read an amount written in words (to, tre, halvdelen) as stating an amount, like one in digits", () => {
    // class: a question asking how many was answered by "4 medlemmer" but not by "mere end halvdelen af medlemmerne"
    const question = "Hvor mange medlemmer kræves der?";
    const relevant = [
      passage({ headingPath: ["Indledning"], text: "Medlemmerne vælges af foreningen.", score: 0.9 }),
    ];
    const retrieved = [
      ...relevant,
      passage({ headingPath: ["Afbud"], text: "Medlemmerne melder afbud til formanden.", score: 0.1 }),
      passage({
        headingPath: ["Beslutninger"],
        text: "Mere end halvdelen af medlemmerne skal deltage.",
        score: 0.1,
      }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 2, question);
    expect(chosen.map((p) => p.headingPath.join())).toEqual(["Beslutninger", "Indledning"]);
  });

  it("should quote, of the best article's sections that state a time, the one headed by a deadline for a time question", () => {
    // class (round 25): "hvor lang tid gemmes sager om medlemmer?" — the answering list sits under "Slettefrister",
    // its neighbours ("Anmodning om sletning", "Slettekoden") state other times with the same words, and ranked
    // above it; a heading naming a deadline says which time is the one asked for
    const question = "Hvor lang tid har vi til at svare på en anmodning?";
    const relevant = [
      passage({ headingPath: ["Trin for trin"], text: "Anmodningen registreres som en sag.", score: 0.9 }),
    ];
    const retrieved = [
      ...relevant,
      passage({
        headingPath: ["Udsendelse"],
        text: "Vi svarer på anmodningen med sikker post inden 5 dage.",
        score: 0.2,
      }),
      passage({
        headingPath: ["Frist"],
        text: "Anmodningen besvares senest 1 måned efter modtagelsen.",
        score: 0.1,
      }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 2, question);
    expect(chosen.map((p) => p.headingPath.join())).toEqual(["Frist", "Trin for trin"]);
    // a question that names the deadline itself weighs its own word, not the heading once more
    const named = passagesToQuote(relevant, retrieved, 2, "Hvad er fristen for at svare på en anmodning?");
    expect(named.map((p) => p.headingPath.join())).toContain("Frist");
  });

  it("should not let a deadline heading of another article admit it beside the best one (padding)", () => {
    const question = "Hvor lang tid har vi til at svare på en anmodning?";
    const relevant = [
      passage({
        headingPath: ["Svar"],
        text: "Vi svarer på anmodningen med sikker post inden 5 dage.",
        score: 0.9,
      }),
      passage({
        articleId: "b",
        title: "Frister",
        headingPath: ["Oversigt over frister"],
        text: "Svar på en anmodning: senest 10 dage.",
        score: 0.8,
      }),
    ];
    const chosen = passagesToQuote(relevant, relevant, 2, question);
    expect(chosen.map((p) => p.articleId)).toEqual(["a"]);
  });
});
