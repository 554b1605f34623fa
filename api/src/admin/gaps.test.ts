import { describe, expect, it } from "vitest";
import { groupKnowledgeGaps, similarity } from "./gaps";

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 30, 9, minutes));

describe("knowledge-gap grouping (Danish analysis)", () => {
  it("should put inflected Danish variants of one question in one group, and an unrelated one apart", () => {
    const groups = groupKnowledgeGaps([
      { question: "Hvor mange feriedage har en medarbejder?", timestamp: at(1) },
      { question: "Hvor mange feriedage har medarbejderne?", timestamp: at(5) },
      { question: "hvor mange FERIEDAGE har vores medarbejdere egentlig", timestamp: at(3) },
      { question: "Hvordan bestiller jeg en parkeringsplads?", timestamp: at(2) },
      { question: "Kan jeg bestille parkeringspladsen?", timestamp: at(4) },
      { question: "Hvad er opskriften på en god lagkage?", timestamp: at(6) },
    ]);
    expect(groups).toEqual([
      {
        question: "Hvor mange feriedage har medarbejderne?",
        count: 3,
        lastAskedAt: at(5),
        examples: [
          "Hvor mange feriedage har medarbejderne?",
          "hvor mange FERIEDAGE har vores medarbejdere egentlig",
          "Hvor mange feriedage har en medarbejder?",
        ],
      },
      {
        question: "Kan jeg bestille parkeringspladsen?",
        count: 2,
        lastAskedAt: at(4),
        examples: ["Kan jeg bestille parkeringspladsen?", "Hvordan bestiller jeg en parkeringsplads?"],
      },
      {
        question: "Hvad er opskriften på en god lagkage?",
        count: 1,
        lastAskedAt: at(6),
        examples: ["Hvad er opskriften på en god lagkage?"],
      },
    ]);
  });

  it("should treat case, spacing and æ/ae as the same wording: one group, one example", () => {
    const groups = groupKnowledgeGaps([
      { question: "Regler for udlæg", timestamp: at(1) },
      { question: "regler for udlaeg", timestamp: at(2) },
      { question: "Regler  for udlæg", timestamp: at(3) },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0].count).toBe(3);
    expect(groups[0].examples).toEqual(["Regler for udlæg"]);
    expect(groups[0].lastAskedAt).toEqual(at(3));
  });

  it("should keep questions sharing one word of two apart, and group stop-word-only questions by text", () => {
    expect(similarity(["soeg", "barselsorlov"], ["regl", "barselsorlov"])).toBeCloseTo(1 / 3);
    const groups = groupKnowledgeGaps([
      { question: "Hvordan søger jeg barselsorlov?", timestamp: at(1) },
      { question: "Regler for barselsorlov", timestamp: at(2) },
      { question: "Hvad er det?", timestamp: at(3) },
      { question: "hvad er det", timestamp: at(4) },
      { question: "Hvem er det?", timestamp: at(5) },
    ]);
    expect(groups.map((g) => [g.question, g.count])).toEqual([
      ["hvad er det", 2],
      ["Hvem er det?", 1],
      ["Regler for barselsorlov", 1],
      ["Hvordan søger jeg barselsorlov?", 1],
    ]);
  });
});
