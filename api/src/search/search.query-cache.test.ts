import { describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { analyseQuery } from "./search.query";
import { QueryCache } from "./search.query-cache";
import { Vocabulary } from "./search.vocabulary";

describe("QueryCache", () => {
  it("reuses an analysis and its rankings within one index version, and drops them when the version moves", () => {
    const cache = new QueryCache(2);
    const vocabulary = new Vocabulary();
    let analysed = 0;
    const analyse = () => {
      analysed++;
      return analyseQuery("klagefrist", vocabulary);
    };
    const a = cache.get("klagefrist", 1, analyse);
    expect(cache.get("klagefrist", 1, analyse)).toBe(a);
    expect(analysed).toBe(1);
    let ranked = 0;
    cache.ranking(a, "k", () => ++ranked);
    expect(cache.ranking(a, "k", () => ++ranked)).toBe(1);
    expect(cache.get("klagefrist", 2, analyse)).not.toBe(a);
    expect(analysed).toBe(2);
  });

  it("keeps at most its size, the least recently used going first", () => {
    const cache = new QueryCache(2);
    const vocabulary = new Vocabulary();
    const a = cache.get("a", 1, () => analyseQuery("a", vocabulary));
    cache.get("b", 1, () => analyseQuery("b", vocabulary));
    cache.get("a", 1, () => analyseQuery("a", vocabulary));
    cache.get("c", 1, () => analyseQuery("c", vocabulary));
    expect(cache.get("a", 1, () => analyseQuery("a", vocabulary))).toBe(a);
    let again = false;
    cache.get("b", 1, () => {
      again = true;
      return analyseQuery("b", vocabulary);
    });
    expect(again).toBe(true);
  });
});

describe("KnowledgeIndex with cached queries", () => {
  it("answers a repeated query from the index as it is now, not as it was", async () => {
    const index = new KnowledgeIndex();
    const article = (id: string, title: string, content: string) => ({
      id,
      title,
      content,
      category: "Drift",
    });
    await index.rebuildFrom([article("a", "Klagefrist", "Klagefristen er fire uger fra afgørelsen.")]);
    expect(index.search("klagefrist").hits.map((h) => h.articleId)).toEqual(["a"]);
    expect((await index.retrieve("klagefrist")).passages.map((p) => p.articleId)).toEqual(["a"]);
    await index.upsertArticle(
      article("b", "Klagefrist ved genoptagelse", "Klagefristen for genoptagelse er seks uger."),
    );
    expect(
      index
        .search("klagefrist")
        .hits.map((h) => h.articleId)
        .sort(),
    ).toEqual(["a", "b"]);
    await index.removeArticle("a");
    expect(index.search("klagefrist").hits.map((h) => h.articleId)).toEqual(["b"]);
    expect((await index.retrieve("klagefrist")).passages.map((p) => p.articleId)).toEqual(["b"]);
  });
});
