/**
 * The chat's passages: relevances in 0..1 from text matches (the search module's rule) and, with embeddings,
 * rescaled cosine similarities; and retrievePassages through the running server over the sample content.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MIN_SCORE, DEFAULT_RETRIEVE_K } from "../chat/answer/answer.service";
import { passagesToQuote } from "../chat/answer/quotes";
import type { RetrievalResult, RetrievedPassage } from "../search/search.types";
import { startTestApp, type TestApp } from "../testing/app";
import {
  COSINE_FLOOR,
  COSINE_SPAN,
  LEAD_SECTION_SCORE,
  RETRIEVE_K_MAX,
  relevances,
  SEARCH_LEAD,
  VECTOR_AGREEMENT_LIFT,
  withSearchLead,
} from "./knowledge.retrieval";

let counter = 0;
function passage(text: string, fields: Partial<RetrievedPassage> = {}): RetrievedPassage {
  counter++;
  return {
    id: `a#${counter}`,
    articleId: "a",
    title: "Klager",
    category: "Sagsbehandling",
    headingPath: [],
    text,
    position: counter,
    wordCount: text.split(" ").length,
    score: 1,
    ...fields,
  };
}

function result(mode: RetrievalResult["mode"], text: string, passages: RetrievedPassage[]): RetrievalResult {
  return { mode, passages, query: { text, truncated: false, terms: [], corrections: [] } };
}

/** The coverage the index reports for a passage covering `words` of a question's `of` words, each of IDF 2. */
const covering = (words: number, of: number) => ({
  coverage: words / of,
  matchedIdf: 2 * words,
  matchedWords: words,
  questionWords: of,
});

describe("withSearchLead (class: the chat quotes another article's section than the one search ranks first)", () => {
  it("should put the first section of search's first article just above the best relevance", () => {
    const other = passage("Kreditnota: en regning kan rettes.", { articleId: "faktura", articleRank: 2 });
    const first = passage("Beløbsgrænser for godkendelse.", { articleId: "betaling", articleRank: 1 });
    const second = passage("To trin: attestation.", { articleId: "betaling", articleRank: 1 });
    const scores = withSearchLead([other, first, second], [0.7, 0.2, 0.4]);
    expect(scores).toEqual([0.7, 0.7 + SEARCH_LEAD, 0.4]);
  });

  it("should leave the scores alone when nothing is relevant at all or search's first article has no section", () => {
    const a = passage("x", { articleId: "a", articleRank: 2 });
    const b = passage("y", { articleId: "b", articleRank: 1 });
    expect(withSearchLead([a, b], [0, 0])).toEqual([0, 0]);
    expect(withSearchLead([a], [0.5])).toEqual([0.5]);
    expect(withSearchLead([a, b], [0.5, 0])).toEqual([0.5, 0]); // no text evidence at all: not lifted
  });
});

describe("relevances", () => {
  it("should score by how much of the question a passage covers (BM25 mode)", () => {
    const [both, one, none] = relevances(
      result("bm25", "klagefrist afgørelse", [
        passage("Klagefristen for en afgørelse er fire uger.", { score: 8, ...covering(2, 2) }),
        // one common word of two (low IDF): an incidental match
        passage("Klagefristen er kort.", {
          score: 6,
          coverage: 0.2,
          matchedIdf: 0.5,
          matchedWords: 0.33,
          questionWords: 2,
        }),
        passage("Noget andet.", { score: 1 }),
      ]),
    );
    expect(both).toBeGreaterThanOrEqual(0.5);
    expect(both).toBeLessThanOrEqual(1);
    expect(one).toBeLessThan(0.25); // one incidental word of two is not relevance
    expect(none).toBe(0);
  });

  it("should let the vector similarity lift text evidence a little, never carry a passage alone", () => {
    const [lifted, alone] = relevances(
      result("hybrid", "klagefrist afgørelse", [
        passage("Klagefristen for en afgørelse er fire uger.", {
          score: 0.5, // the fused score says nothing about relevance
          lexicalScore: 9,
          vectorScore: COSINE_FLOOR + COSINE_SPAN,
          ...covering(1, 2),
        }),
        passage("Noget om tidsgrænser.", { score: 0.5, vectorScore: COSINE_FLOOR + COSINE_SPAN }),
      ]),
    );
    const [textOnly] = relevances(
      result("bm25", "klagefrist afgørelse", [
        passage("Klagefristen for en afgørelse er fire uger.", { score: 9, ...covering(1, 2) }),
      ]),
    );
    expect(lifted).toBeCloseTo(textOnly + VECTOR_AGREEMENT_LIFT, 10);
    expect(alone).toBe(0);
  });

  it("should give nothing for no passages", () => {
    expect(relevances(result("bm25", "klage", []))).toEqual([]);
  });
});

describe("retrievePassages through the running server", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("should give the chat passages with a 0..1 score, the article's date and a link", async () => {
    const passages = await app.services.knowledge.retrievePassages("Hvad er klagefristen?", 4);
    expect(passages.length).toBeGreaterThan(0);
    expect(passages[0].title).toMatch(/klage/i);
    for (const p of passages) {
      expect(p.score).toBeGreaterThanOrEqual(0);
      expect(p.score).toBeLessThanOrEqual(1);
      expect(p.updatedAt).toBeInstanceOf(Date);
      expect(p.url).toBe(`/knowledge?article=${p.articleId}`);
      expect(Array.isArray(p.headingPath)).toBe(true);
    }
    expect(passages[0].score).toBeGreaterThan(0.5);
    // a question the knowledge base does not cover scores low or finds nothing
    const off = await app.services.knowledge.retrievePassages("opskrift på lagkage med jordbær", 4);
    expect(off.every((p) => p.score < 0.25)).toBe(true);
    expect(await app.services.knowledge.retrievePassages("", 4)).toEqual([]);
  });

  it("should follow the k passages with the best article's other sections at LEAD_SECTION_SCORE (the chat's candidates)", async () => {
    const only = await app.services.knowledge.retrievePassages("Hvad er klagefristen?", 4);
    expect(only.length).toBeLessThanOrEqual(4);
    const passages = await app.services.knowledge.chatPassages("Hvad er klagefristen?", 4);
    const added = passages.filter((p) => p.score === LEAD_SECTION_SCORE);
    expect(added.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(4 + added.length);
    expect(added.every((p) => p.articleId === passages[0].articleId)).toBe(true);
    const sections = passages.map((p) => `${p.articleId}/${p.headingPath.join("/")}/${p.text.slice(0, 40)}`);
    expect(new Set(sections).size).toBe(sections.length);
  });

  it("should count a retrieved section of the best article at least LEAD_SECTION_SCORE, like one it did not return", async () => {
    // class (round 22, quote-classes "lead article, below lead min score"): the section that answers was retrieved,
    // but at a relevance below the chat's lead-article floor, so it counted less than the sections retrieval did not
    // return at all (LEAD_SECTION_SCORE) and was never quoted
    const question = "Hvad skal der stå i en afgørelse?";
    const passages = await app.services.knowledge.chatPassages(question, DEFAULT_RETRIEVE_K);
    const lead = passages[0].articleId;
    const ofLead = passages.filter((p) => p.articleId === lead);
    expect(ofLead.length).toBeGreaterThan(1);
    expect(ofLead.every((p) => p.score >= LEAD_SECTION_SCORE)).toBe(true);
    const relevant = passages.filter((p) => p.score >= DEFAULT_MIN_SCORE);
    const quoted = passagesToQuote(relevant, passages, undefined, question);
    expect(quoted.map((p) => p.headingPath.at(-1))).toContain("Afgørelsens indhold");
  });

  it("should never throw on odd input and give at most RETRIEVE_K_MAX passages", async () => {
    const knowledge = app.services.knowledge;
    for (const q of ["   ", 42, null, undefined]) {
      expect(await knowledge.retrievePassages(q as never, 4), String(q)).toEqual([]);
    }
    expect((await knowledge.retrievePassages("frist klage budget møde", 1_000)).length).toBeLessThanOrEqual(
      RETRIEVE_K_MAX,
    );
    expect(await knowledge.retrievePassages(`klagefrist ${"x".repeat(50_000)}`, 3)).not.toEqual([]);
  });
});
