import { describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { buildArticle, hashedEmbedder, sampleArticles } from "./search.test-helpers";

// "penge" and "beløb" never occur in the fee article below, but the test embedder puts them on
// the same dimension as "kontingent": only the vector half of hybrid retrieval can connect them.
const SYNONYMS = [["kontingent", "penge", "beløb", "betaling"]];

describe("KnowledgeIndex hybrid retrieval", () => {
  it("should embed passages in batches and retrieve in hybrid mode", async () => {
    const { embed, calls } = hashedEmbedder(SYNONYMS);
    const index = new KnowledgeIndex({ embed, embedBatchSize: 16 });
    const articles = await sampleArticles();
    await index.rebuildFrom(articles);
    const stats = index.stats();
    expect(stats).toMatchObject({ hybrid: true, pendingEmbeddings: 0 });
    expect(stats.embeddedPassages).toBe(stats.passages);
    expect(calls.length).toBe(Math.ceil(stats.passages / 16));
    expect(calls.every((batch) => batch.length <= 16)).toBe(true);

    const result = await index.retrieve("Hvad er klagefristen?", { k: 3 });
    expect(result.mode).toBe("hybrid");
    expect(result.passages[0].articleId).toBe("sagsbehandling/klager-over-afgoerelser.md");
    expect(result.passages[0].lexicalScore).toBeGreaterThan(0);
    expect(result.passages[0].vectorScore).toBeGreaterThan(0);
    expect(result.passages[0].score).toBeGreaterThan(0);
    expect(result.passages[0].score).toBeLessThanOrEqual(1);
  });

  it("should find a passage through its embedding when no query word is in it", async () => {
    const { embed } = hashedEmbedder(SYNONYMS);
    const fee = buildArticle({ title: "Medlemsafgift", content: "Kontingentet opkræves i januar." });
    const other = buildArticle({ title: "Møder", content: "Bestyrelsen mødes seks gange om året." });
    const hybrid = new KnowledgeIndex({ embed });
    const lexical = new KnowledgeIndex();
    for (const index of [hybrid, lexical]) await index.rebuildFrom([fee, other]);

    expect((await lexical.retrieve("penge")).passages).toEqual([]);
    const { passages, mode } = await hybrid.retrieve("penge");
    expect(mode).toBe("hybrid");
    expect(passages.map((p) => p.articleId)).toEqual([fee.id]);
    expect(passages[0].lexicalScore).toBeUndefined();
    expect(passages[0].vectorScore).toBeGreaterThan(0.2);
  });

  it("should re-embed only the passages an edit changed", async () => {
    const { embed, calls } = hashedEmbedder();
    const index = new KnowledgeIndex({ embed });
    const a = buildArticle({
      content: `## Første afsnit\n${"Uændret tekst om budget. ".repeat(10)}\n## Andet afsnit\n${"Tekst om kontingent. ".repeat(10)}`,
    });
    await index.upsertArticle(a);
    expect(calls.flat()).toHaveLength(2);
    const edited = { ...a, content: a.content.replaceAll("Tekst om kontingent.", "Ny tekst om referat.") };
    const result = await index.upsertArticle(edited);
    expect(result).toMatchObject({ changed: true, passages: 2, embedded: 2 });
    expect(calls.flat()).toHaveLength(3);
    expect(calls.at(-1)?.[0]).toContain("Ny tekst om referat.");
    // Old vector gone with the old text: the new passage is found, the old words are not.
    expect((await index.retrieve("referat")).passages[0].articleId).toBe(a.id);
    expect((await index.retrieve("kontingent")).passages.every((p) => !p.text.includes("kontingent"))).toBe(
      true,
    );
  });

  it("should index the text even when embedding fails, and embed it later", async () => {
    let fail = true;
    const { embed: working } = hashedEmbedder();
    const embed = async (texts: string[]) => {
      if (fail) throw new Error("embedding-tjenesten svarer ikke");
      return working(texts);
    };
    const index = new KnowledgeIndex({ embed });
    const a = buildArticle({ content: "Databrud anmeldes inden 72 timer." });
    const result = await index.upsertArticle(a);
    expect(result).toMatchObject({
      changed: true,
      embedded: 0,
      embeddingError: "embedding-tjenesten svarer ikke",
    });
    expect(index.stats().pendingEmbeddings).toBe(1);
    // Retrieval still works, on BM25, while the query cannot be embedded.
    const fallback = await index.retrieve("databrud");
    expect(fallback.mode).toBe("bm25");
    expect(fallback.passages.map((p) => p.articleId)).toEqual([a.id]);

    fail = false;
    expect(await index.embedPending()).toBe(1);
    expect(index.stats().pendingEmbeddings).toBe(0);
    expect((await index.retrieve("databrud")).mode).toBe("hybrid");
  });

  it("should drop a deleted article's passages from vector retrieval too", async () => {
    const { embed } = hashedEmbedder(SYNONYMS);
    const fee = buildArticle({ content: "Kontingentet opkræves i januar." });
    const index = new KnowledgeIndex({ embed });
    await index.upsertArticle(fee);
    expect((await index.retrieve("penge")).passages).toHaveLength(1);
    await index.removeArticle(fee.id);
    expect((await index.retrieve("penge")).passages).toEqual([]);
    expect(index.stats()).toMatchObject({ passages: 0, embeddedPassages: 0 });
  });
});
