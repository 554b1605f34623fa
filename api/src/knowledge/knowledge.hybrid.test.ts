/**
 * With OPENAI_EMBEDDING_MODEL configured, the knowledge service embeds passages through the LLM client (a local
 * OpenAI-compatible server here, through the real SDK) and retrieval is hybrid; when embeddings fail, search and
 * retrieval keep working on text alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql } from "../testing/client";
import { type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import { KnowledgeService } from "./knowledge.service";

let fake: FakeOpenAI;
let app: TestApp;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: "sk-test" });
  app = await startTestApp({
    config: {
      openaiApiKey: "sk-test",
      openaiBaseUrl: fake.baseURL,
      openaiModel: "gpt-test",
      openaiEmbeddingModel: "text-embedding-test",
    },
  });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe("KnowledgeService with an embedding model", () => {
  it("should embed every passage after start-up and retrieve in hybrid mode with 0..1 scores", async () => {
    const knowledge = app.services.knowledge;
    expect(knowledge.hybrid).toBe(true);
    // the text index is ready at start-up; the passages are embedded right after, in the background
    await expect.poll(async () => (await knowledge.stats()).pendingEmbeddings, { timeout: 15_000 }).toBe(0);
    const stats = await knowledge.stats();
    expect(stats.passages).toBeGreaterThan(24);
    expect(stats.embeddedPassages).toBe(stats.passages);
    const embedded = fake.embeddingRequests();
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded[0].body.model).toBe("text-embedding-test");
    expect(embedded[0].authorization).toBe("Bearer sk-test");

    const before = fake.embeddingRequests().length;
    const passages = await knowledge.retrievePassages("Hvad er klagefristen?", 4);
    expect(fake.embeddingRequests().length).toBe(before + 1); // the question was embedded
    expect(fake.embeddingRequests().at(-1)?.body.input).toEqual(["Hvad er klagefristen?"]);
    // the fake's hashed bag-of-words vectors are noisy; the text match still brings the answer in
    expect(passages.some((p) => /klage/i.test(p.title) && p.score > 0.5)).toBe(true);
    for (const p of passages) {
      expect(p.score).toBeGreaterThanOrEqual(0);
      expect(p.score).toBeLessThanOrEqual(1);
    }
  });

  it("should embed only the passages of an edited article, and fall back to text when embeddings fail", async () => {
    const knowledge = app.services.knowledge;
    const admin = await app.services.users.findByLogin(app.admin.email);
    const before = fake.embeddingRequests().length;
    await knowledge.createArticle(admin, {
      title: "Cykelparkering",
      content: "# Cykelparkering\n\nCyklerne stilles i kælderen under trappeopgangen.\n",
      category: "Procedurer",
    });
    const added = fake.embeddingRequests().slice(before);
    expect(added).toHaveLength(1);
    expect(added[0].body.input.join("\n")).toContain("kælderen");

    fake.setBehaviour({ embeddingsFailure: { status: 500 } });
    try {
      const passages = await knowledge.retrievePassages("hvor stilles cyklerne i kælderen", 3);
      expect(passages[0]?.title).toBe("Cykelparkering");
      const token = (await createVerifiedUser(app)).token;
      const res = await gql(
        app,
        'query { searchKnowledge(query: "cyklerne") { hits { article { title } } } }',
        {},
        token,
      );
      expect(res.data.searchKnowledge.hits[0].article.title).toBe("Cykelparkering");
    } finally {
      fake.reset();
    }
  });

  it("should embed passages an embedding failure left as text only once the service answers again", async () => {
    // a second service over the same store, as another server process would have, retrying at once
    const other = new KnowledgeService({ config: app.config, embedRetryMs: 0 });
    fake.setBehaviour({ embeddingsFailure: { status: 500 } });
    try {
      await other.ensureSampleContent(); // the store has articles: only loads them
      const failed = await other.stats();
      expect(failed.passages).toBeGreaterThan(24);
      expect(failed.pendingEmbeddings).toBe(failed.passages);
      expect((await other.retrievePassages("Hvad er klagefristen?", 3))[0]?.title).toMatch(/klage/i);
    } finally {
      fake.reset();
    }
    await expect
      .poll(async () => (await other.stats()).pendingEmbeddings, { timeout: 15_000, interval: 200 })
      .toBe(0);
  });
});
