/** Earlier answers in the prompt: cleaned of their citation markers once and kept (prompt.ts earlierAnswerText). */
import { describe, expect, it } from "vitest";
import { cleanCitations } from "./citations";
import { buildChatMessages, CLEANED_ANSWERS_KEPT, earlierAnswerText, keptCleanedAnswers } from "./prompt";

describe("earlier answers in the prompt (prompt.ts)", () => {
  it("should keep at most CLEANED_ANSWERS_KEPT cleaned answers, each answer its own text whether kept or not", () => {
    const first = ["Ferien optjenes løbende [1].", "Fristen er 4 uger [2, 3] fra afgørelsen.", "Ja [1]. "];
    const cleaned = first.map(earlierAnswerText);
    expect(cleaned).toEqual(["Ferien optjenes løbende.", "Fristen er 4 uger fra afgørelsen.", "Ja."]);
    for (let i = 0; i < CLEANED_ANSWERS_KEPT + 50; i++) earlierAnswerText(`Svar nr. ${i} [${(i % 5) + 1}].`);
    expect(keptCleanedAnswers()).toBeLessThanOrEqual(CLEANED_ANSWERS_KEPT);
    expect(keptCleanedAnswers()).toBeGreaterThan(0);
    // a different answer is never given another's kept text, before or after it was dropped
    expect(first.map(earlierAnswerText)).toEqual(cleaned);
    expect(earlierAnswerText("Svar nr. 7 [3].")).toBe("Svar nr. 7.");
    expect(earlierAnswerText("Svar nr. 8 [4].")).toBe("Svar nr. 8.");
    for (const text of ["a [1] b", "`[1]` kode", "løn [0][2]", "tekst \\", "  "])
      expect(earlierAnswerText(text)).toBe(cleanCitations(text, new Set()).trim());
  });

  it("should send an earlier answer without its markers, the same text each time it is sent", () => {
    const history = [
      { role: "user" as const, content: "Hvor mange feriedage?" },
      { role: "assistant" as const, content: "Du optjener 2,08 dage om måneden [1]." },
    ];
    for (let i = 0; i < 2; i++) {
      const messages = buildChatMessages({ question: "Og deltid?", history, sources: [], language: "da" });
      expect(messages.map((m) => m.content).slice(1)).toEqual([
        "Hvor mange feriedage?",
        "Du optjener 2,08 dage om måneden.",
        "Og deltid?",
      ]);
    }
  });
});
