/**
 * Class of failure (bench/answers/quote-classes.ts "answering section not a candidate"): the chat cites the right
 * article, but the section holding the sentence that answers is not among the retrieved passages (its neighbours
 * share more of the question's words), so no quote can hold it. The best article's other sections are added to the
 * chat's candidates below the gate (leadSections, LEAD_SECTION_SCORE) and the sentence evidence picks among them.
 */
import { describe, expect, it } from "vitest";
import { passagesToQuote, quoteOf } from "../chat/answer/quotes";
import type { Passage } from "../chat/answer/types";
import { KnowledgeIndex } from "../search/search.index";
import { buildArticle } from "../search/search.test-helpers";
import { LEAD_SECTION_SCORE, leadSections, RETRIEVE_K_MAX, relevances } from "./knowledge.retrieval";

const breach = buildArticle({
  id: "breach",
  title: "Brud på persondatasikkerheden",
  content: [
    "# Brud på persondatasikkerheden",
    "## Anmeldelse til Datatilsynet",
    "Anmeldelse af et brud sker på Datatilsynets formular. Anmeldelse skal beskrive bruddet og de berørte.",
    "## Efter anmeldelse",
    "Efter anmeldelse følger vi op på anmeldelse og skriver i logbogen, hvad vi har gjort.",
    "## Det første døgn",
    "Giv sekretariatschefen besked med det samme. Datatilsynet skal have besked senest 72 timer efter, at bruddet er opdaget.",
  ].join("\n\n"),
});
const other = buildArticle({
  id: "other",
  title: "Kontingent",
  content: "# Kontingent\n\n## Opkrævning\n\nKontingentet opkræves i januar og betales inden 30 dage.\n",
});

const QUESTION = "Hvad er fristen for anmeldelse af et brud?";
const K = 2;

async function chatCandidates(withLeadSections: boolean): Promise<{ passages: Passage[]; scores: number[] }> {
  const index = new KnowledgeIndex();
  await index.rebuildFrom([breach, other]);
  const res = await index.retrieve(QUESTION, { k: K });
  const scores = relevances(res);
  const passages: Passage[] = res.passages.map((p, i) => ({ ...p, score: scores[i] }));
  if (withLeadSections)
    for (const p of leadSections(res, scores, (id) => index.passagesOf(id)))
      passages.push({ ...p, score: LEAD_SECTION_SCORE });
  return { passages, scores };
}

function quoted(passages: Passage[]): string[] {
  const relevant = passages.filter((p) => p.score >= 0.25).sort((a, b) => b.score - a.score);
  return passagesToQuote(relevant, passages, undefined, QUESTION).map((p) => quoteOf(p.text, QUESTION));
}

describe("leadSections (class: the answering section of the cited article is not a candidate)", () => {
  it("should leave the answering section out of the retrieved passages (the case this rule is for)", async () => {
    const { passages } = await chatCandidates(false);
    expect(passages.map((p) => p.headingPath.at(-1))).not.toContain("Det første døgn");
    expect(quoted(passages).join(" ")).not.toContain("72 timer");
  });

  it("should add the best article's other sections below the gate, so the answering sentence is quoted", async () => {
    const { passages, scores } = await chatCandidates(true);
    const added = passages.slice(K);
    expect(added.map((p) => p.headingPath.at(-1))).toContain("Det første døgn");
    expect(added.every((p) => p.articleId === "breach" && p.score < 0.25)).toBe(true);
    // the gate's evidence is the retrieved passages' alone: the relevances do not move
    expect(passages.slice(0, K).map((p) => p.score)).toEqual(scores);
    const quotes = quoted(passages);
    expect(quotes.join(" ")).toContain("senest 72 timer");
    // the answer still opens with the best retrieved passage's article (with its section that answers best)
    const relevant = passages.filter((p) => p.score >= 0.25);
    expect(passagesToQuote(relevant, passages, undefined, QUESTION)[0].articleId).toBe(passages[0].articleId);
  });

  it("should add nothing when no passage is relevant, and keep a retrieval within RETRIEVE_K_MAX", async () => {
    const index = new KnowledgeIndex();
    await index.rebuildFrom([breach, other]);
    const res = await index.retrieve(QUESTION, { k: K });
    expect(leadSections(res, [0, 0], (id) => index.passagesOf(id))).toEqual([]);
    const full = { ...res, passages: Array.from({ length: RETRIEVE_K_MAX }, () => res.passages[0]) };
    expect(leadSections(full, new Array(RETRIEVE_K_MAX).fill(0.5), (id) => index.passagesOf(id))).toEqual([]);
  });
});
