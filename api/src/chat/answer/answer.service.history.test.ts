/**
 * A question later in a session, over the real search index of the sample content and a history made by answering
 * the earlier turn for real: a question of its own (with the expletive "det") is searched alone and declined, not
 * answered from the earlier topic; an elliptical follow-up without any cue word still finds its topic.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { leadSections, relevances } from "../../knowledge/knowledge.retrieval";
import { KnowledgeIndex } from "../../search/search.index";
import { sampleArticles } from "../../search/search.test-helpers";
import { answerQuestion } from "./answer.service";
import type { AnswerQuestionInput, HistoryTurn, Passage } from "./types";

describe("answer.service with a session's history", () => {
  const index = new KnowledgeIndex();
  const queries: string[] = [];
  /** the chat's candidates as the knowledge service gives them (knowledge.retrieval.ts) */
  const retrieve: AnswerQuestionInput["retrieve"] = async (query, k) => {
    queries.push(query);
    const res = await index.retrieve(query, { k });
    const scores = relevances(res);
    const found: Passage[] = res.passages.map((p, i) => ({ ...p, score: scores[i] }));
    for (const p of leadSections(res, scores, (id) => index.passagesOf(id))) found.push({ ...p, score: 0.1 });
    return found;
  };
  const ask = (question: string, history: HistoryTurn[]) =>
    answerQuestion({ question, history, language: "da", retrieve });

  /** The session so far: each question answered for real, its answer stored as the assistant turn. */
  async function session(...questions: string[]): Promise<HistoryTurn[]> {
    const history: HistoryTurn[] = [];
    for (const q of questions) {
      const res = await ask(q, history);
      expect(res.status).toBe("complete");
      history.push({ role: "user", content: q }, { role: "assistant", content: res.content });
    }
    return history;
  }

  beforeAll(async () => {
    await index.rebuildFrom(await sampleArticles());
  });

  it("should search a question of its own with the expletive 'det' alone, and decline it", async () => {
    const history = await session("Hvem attesterer mit udlæg på 3.000 kr.?");
    queries.length = 0;
    const question = "Er det muligt at få fri på sin fødselsdag?";
    const res = await ask(question, history);
    expect(res.mode).toBe("no_sources");
    expect(res.knowledgeGap).toBe(true);
    expect(res.retrievalQuery).toBe(question);
    expect(queries).toHaveLength(2); // alone and with the earlier turn: one extra retrieval
  });

  it("should answer an expletive-'det' question on another article from that article", async () => {
    const history = await session("Hvornår skal referatet sendes til formanden?");
    const res = await ask("Hvad koster det at få aktindsigt i en sag?", history);
    expect(res.content).toContain("Aktindsigt er gratis.");
    expect(res.sources.map((s) => s.articleId)).toContain("sagsbehandling/aktindsigt-i-sager.md");
    expect(res.retrievalQuery).toBe("Hvad koster det at få aktindsigt i en sag?");
  });

  it("should answer an elliptical follow-up from the earlier turn's topic", async () => {
    const history = await session("Hvem behandler klagen, hvis sekretariatet fastholder afgørelsen?");
    const question = "Hvor lang tid har de til at træffe afgørelse?";
    const res = await ask(question, history);
    expect(res.sources[0]?.articleId).toBe("sagsbehandling/klager-over-afgoerelser.md");
    expect(res.content).toContain("Klageudvalget træffer afgørelse inden 8 uger");
    expect(res.retrievalQuery).toBe(
      `${question}\nHvem behandler klagen, hvis sekretariatet fastholder afgørelsen?`,
    );
  });

  it("should search a first question once", async () => {
    queries.length = 0;
    await ask("Hvor lang tid har de til at træffe afgørelse?", []);
    expect(queries).toEqual(["Hvor lang tid har de til at træffe afgørelse?"]);
  });
});
