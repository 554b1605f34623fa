/** What evidence.ts keeps between questions (stems) and reads faster (a passage's words as one text). */
import { describe, expect, it } from "vitest";
import { foldedWords, holds, holdsText, keptStemCount, STEMS_KEPT, stemOf, wordsText } from "./evidence";

describe("evidence.ts: kept stems and words as one text", () => {
  it("should keep at most STEMS_KEPT stems, and give each word its own stem whether kept or not", () => {
    const first = ["svaret", "meldte", "klagefristen", "Sagen", "sagen"].map((w) => [w, stemOf(w)] as const);
    expect(first.map(([, s]) => s)).toEqual(["svar", "meld", "klage", "sag", "sag"]);
    // many other words: the first ones are dropped from the kept stems, which never grow past the bound
    for (let i = 0; i < STEMS_KEPT + 500; i++) stemOf(`ferieregel${i}`);
    expect(keptStemCount()).toBeLessThanOrEqual(STEMS_KEPT);
    expect(keptStemCount()).toBeGreaterThan(0);
    // a different word is never answered with another's kept stem, before or after it was dropped
    for (const [word, stem] of first) expect(stemOf(word)).toBe(stem);
    expect(stemOf("nummer")).toBe("num");
    expect(stemOf("nummer")).toBe("num");
    expect(stemOf("slette")).toBe("slet");
  });

  it("should find a stem in the words as one text exactly when holds() finds it in the words", () => {
    const texts = [
      "Klagefristen er fire uger fra afgørelsen.",
      "Sagsbehandlingen tager normalt 14 dage; ferie og barsel forlænger den.",
      "Mentorordning",
      "",
    ];
    const stems = [
      "frist",
      "klag",
      "uger",
      "sag",
      "ferie",
      "14",
      "mentor",
      "ordn",
      "xyz",
      "frist|indhold",
      "abc|sag",
    ];
    for (const text of texts) {
      const words = foldedWords(text);
      for (const stem of stems)
        expect(holdsText(wordsText(words), stem), `${stem} in ${text}`).toBe(holds(words, stem));
    }
    // two words' letters never meet across the joint: "frist" is not in "…fri stor…"
    expect(holdsText(wordsText(["fri", "stor"]), "frist")).toBe(false);
    expect(holds(["fri", "stor"], "frist")).toBe(false);
  });
});
