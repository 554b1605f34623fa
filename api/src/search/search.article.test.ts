import { describe, expect, it } from "vitest";
import { SearchIndexError, validateArticle } from "./search.article";
import { KnowledgeIndex } from "./search.index";
import { buildArticle } from "./search.test-helpers";

async function indexWith(...articles: ReturnType<typeof buildArticle>[]) {
  const index = new KnowledgeIndex();
  for (const a of articles) await index.upsertArticle(a);
  return index;
}

function rejection(input: unknown): SearchIndexError {
  try {
    validateArticle(input);
  } catch (err) {
    if (err instanceof SearchIndexError) return err;
    throw err;
  }
  throw new Error("validateArticle accepted the article");
}

describe("validateArticle", () => {
  it("should return a clean copy: category and subcategory trimmed, blank ones and blank tags dropped", () => {
    const updatedAt = new Date("2025-01-01T00:00:00Z");
    const input = {
      id: "a",
      title: " Titel ",
      content: "Tekst",
      category: " Økonomi ",
      subcategory: "   ",
      tags: [" budget ", "", "  "],
      updatedAt,
      extra: "ignoreres",
    };
    expect(validateArticle(input)).toEqual({
      id: "a",
      title: " Titel ",
      content: "Tekst",
      category: "Økonomi",
      subcategory: undefined,
      tags: ["budget"],
      updatedAt,
    });
    expect(validateArticle({ ...input, subcategory: " Regnskab " }).subcategory).toBe("Regnskab");
    expect(validateArticle({ ...input, subcategory: null, tags: undefined }).tags).toEqual([]);
  });

  it("should name the article and the field in a Danish message with the stable code INVALID_ARTICLE", () => {
    const good = { id: "a", title: "T", content: "C", category: "K" };
    const cases: [unknown, string][] = [
      [null, "Artikel: skal være et objekt"],
      ["tekst", "Artikel: skal være et objekt"],
      [{ ...good, id: 7 }, "Artikel: id skal være en ikke-tom tekst"],
      [{ ...good, title: 7 }, "Artikel a: title skal være en tekst"],
      [{ ...good, content: undefined }, "Artikel a: content skal være en tekst"],
      [{ ...good, category: "" }, "Artikel a: category skal være en ikke-tom tekst"],
      [{ ...good, subcategory: 3 }, "Artikel a: subcategory skal være en tekst"],
      [{ ...good, tags: "budget" }, "Artikel a: tags skal være en liste af tekster"],
      [{ ...good, tags: ["ok", 3] }, "Artikel a: tags skal være en liste af tekster"],
    ];
    for (const [input, message] of cases) {
      const err = rejection(input);
      expect(err.code).toBe("INVALID_ARTICLE");
      expect(err.message).toBe(message);
    }
  });
});

describe("KnowledgeIndex with invalid articles", () => {
  it("should reject an invalid article with a stable code naming the field and change nothing", async () => {
    const index = await indexWith(buildArticle({ id: "keep", content: "Bevares." }));
    const bad = [
      { ...buildArticle(), id: "" },
      { ...buildArticle(), title: undefined },
      { ...buildArticle(), category: "  " },
      { ...buildArticle(), tags: ["ok", 3] },
      { ...buildArticle(), content: null },
    ];
    for (const article of bad) {
      const err = await index.upsertArticle(article as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SearchIndexError);
      expect((err as SearchIndexError).code).toBe("INVALID_ARTICLE");
    }
    await expect(index.upsertArticle({ ...buildArticle(), tags: ["ok", 3] } as never)).rejects.toThrow(
      /tags/,
    );
    expect(index.stats().articles).toBe(1);
    expect(index.search("bevares").total).toBe(1);
  });
});
