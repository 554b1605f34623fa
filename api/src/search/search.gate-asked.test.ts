/**
 * The kind of thing a question asks for (issue 15, round 15; search.gate-asked.ts): after an interrogative determiner
 * ("hvilken dato …") the noun names what the answer is, and a passage without any trace of it is declined by the
 * relevance gate however many of the question's other words it holds. Synthetic corpus and questions (none of the
 * evaluation sets').
 */
import { describe, expect, it } from "vitest";
import { analyse } from "./search.analyzer";
import { coverageOf, gateConcepts, gateFields } from "./search.coverage";
import { askedWord } from "./search.gate-asked";
import { relevanceOf } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import type { RetrievedPassage } from "./search.types";
import { Vocabulary } from "./search.vocabulary";

const ARTICLES = [
  "Sommerfest. Sommerfesten holdes i kantinen, og alle kolleger er inviteret med familie.",
  "Kontingent. Kontingentet betales senest den 1. marts, og fakturaen har en betalingsdato.",
  "Møder. Dagsordenen sendes en uge før mødet med en dato for mødet.",
  "Arkiv. Sager arkiveres efter fem år.",
  "Telefon. Telefonen besvares af sekretariatet i åbningstiden.",
  "Nyhedsbrev. Nyhedsbrevet sendes ud hver måned til alle medlemmer.",
];
const vocabulary = new Vocabulary();
for (const content of ARTICLES) vocabulary.count({ title: "", category: "", tags: [], content }, 1);

const THRESHOLD = 0.25; // the chat's DEFAULT_MIN_SCORE

function relevance(question: string, text: string, asked = true): number {
  const q = analyseQuery(question, vocabulary);
  const concepts = gateConcepts(q.concepts, undefined, asked ? question : undefined);
  const cover = coverageOf(concepts, { all: new Set(analyse(text)), headings: new Set() });
  return relevanceOf(gateFields(cover) as RetrievedPassage, [], 0, false, 0);
}

describe("the kind of thing a question asks for", () => {
  it("should read the noun after an interrogative determiner, past stop words, kind words and adjectives", () => {
    expect(askedWord("Hvilken dato er sommerfesten?")).toBe("dato");
    expect(askedWord("hvilke personlige oplysninger må vi gemme")).toBe("oplysninger");
    expect(askedWord("Hvilken slags kursus er det?")).toBe("kursus");
    expect(askedWord("Hvad for et skema skal jeg bruge?")).toBe("skema");
    expect(askedWord("Hvor mange personer sidder i bestyrelsen?")).toBeNull(); // the answer is a number
  });

  it("should decline a passage that holds the question's topic but nothing of the asked kind", () => {
    const question = "Hvilken dato er sommerfesten?";
    // without the rule the passage naming the party passes on its one rare word
    expect(relevance(question, ARTICLES[0], false)).toBeGreaterThanOrEqual(THRESHOLD);
    expect(relevance(question, ARTICLES[0])).toBeLessThan(THRESHOLD);
  });

  it("should leave a passage that holds the asked kind, and a question that asks for none, as they were", () => {
    expect(relevance("Hvilken dato sendes dagsordenen?", ARTICLES[2])).toBe(
      relevance("Hvilken dato sendes dagsordenen?", ARTICLES[2], false),
    );
    expect(relevance("Hvornår er sommerfesten?", ARTICLES[0])).toBe(
      relevance("Hvornår er sommerfesten?", ARTICLES[0], false),
    );
  });
});
