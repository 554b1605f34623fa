import { describe, expect, it } from "vitest";
import { analyse, boundedEditDistance, fold, normaliseWord, typoBudget, wordSpans } from "./search.analyzer";

describe("search.analyzer", () => {
  it("should stem sagsbehandling, sagsbehandlingen and sagsbehandlinger to one term", () => {
    const terms = ["sagsbehandling", "sagsbehandlingen", "sagsbehandlinger", "Sagsbehandlingen"].map(
      normaliseWord,
    );
    expect(new Set(terms).size).toBe(1);
    expect(normaliseWord("generalforsamlingen")).toBe(normaliseWord("generalforsamling"));
    expect(normaliseWord("klagefristen")).toBe(normaliseWord("klagefrist"));
  });

  it("should drop Danish stop words and question words", () => {
    expect(analyse("Hvad er klagefristen, og hvem skal jeg spørge?")).toEqual([
      normaliseWord("klagefristen"),
      normaliseWord("spørge"),
    ]);
  });

  it("should drop the fillers of spoken questions", () => {
    expect(
      analyse("Den er jo allerede sendt, og vi har stadig lidt tid – er det helt i orden altså?"),
    ).toEqual(analyse("Den er sendt, og vi har tid – er det i orden?"));
  });

  it("should drop stop words written without æ, ø, å as it drops them with (missing æøå)", () => {
    const asked = "hvornår kører sletterutinen, og hvad gør jeg når den ikke må køre";
    const typed = "hvornaar koerer sletterutinen, og hvad goer jeg naar den ikke maa koere";
    expect(analyse(typed)).toEqual(analyse(asked));
    expect(analyse(typed)).not.toContain("hvornaar");
  });

  it("should fold æ, ø, å and accents after stemming so 'udlaeg' equals 'udlæg'", () => {
    expect(fold("Udlæg")).toBe("udlaeg");
    expect(fold("møde")).toBe("moede");
    expect(fold("årsregnskab")).toBe("aarsregnskab");
    expect(fold("idé")).toBe("ide");
    expect(normaliseWord("udlaeg")).toBe(normaliseWord("udlæg"));
  });

  it("should find words with positions and ignore regex-special characters", () => {
    expect(wordSpans("Frist: 4 uger (28 dage).*[a-z")).toEqual([
      { word: "Frist", start: 0, end: 5 },
      { word: "4", start: 7, end: 8 },
      { word: "uger", start: 9, end: 13 },
      { word: "28", start: 15, end: 17 },
      { word: "dage", start: 18, end: 22 },
      { word: "a", start: 26, end: 27 },
      { word: "z", start: 28, end: 29 },
    ]);
    expect(analyse(".*( $ne [")).toEqual(["ne"]);
  });

  it("should count a swap of two letters as one edit and stop early beyond the bound", () => {
    expect(boundedEditDistance("sagsbehandlnig", "sagsbehandling", 2)).toBe(1);
    expect(boundedEditDistance("generalforsmaling", "generalforsamling", 2)).toBe(1);
    expect(boundedEditDistance("kontingnet", "kontingent", 2)).toBe(1);
    expect(boundedEditDistance("budget", "budgetter", 2)).toBe(3);
    expect(boundedEditDistance("abc", "xyz", 1)).toBe(2);
    expect(boundedEditDistance("same", "same", 0)).toBe(0);
  });

  it("should allow more typos in longer words and none in very short ones", () => {
    expect(typoBudget(3)).toBe(0);
    expect(typoBudget(5)).toBe(1);
    expect(typoBudget(14)).toBe(2);
  });
});
