import { describe, expect, it } from "vitest";
import { normaliseWord } from "./search.analyzer";
import { KnowledgeIndex } from "./search.index";
import { buildArticle } from "./search.test-helpers";
import type { SearchHit } from "./search.types";
import { Vocabulary, type VocabularyArticle } from "./search.vocabulary";

const marked = (hit: SearchHit) => hit.highlights.map((h) => hit.snippet.slice(h.start, h.end));

async function indexWith(...articles: ReturnType<typeof buildArticle>[]) {
  const index = new KnowledgeIndex();
  for (const a of articles) await index.upsertArticle(a);
  return index;
}

function article(content: string, fields: Partial<VocabularyArticle> = {}): VocabularyArticle {
  return { title: "", category: "", tags: [], content, ...fields };
}

describe("Vocabulary", () => {
  it("should know the index terms of every field, stemmed, and count words as written (folded)", () => {
    const v = new Vocabulary();
    v.count(
      article("Kontingentet opkræves.", {
        title: "Betaling",
        category: "Økonomi",
        subcategory: "Regnskab",
        tags: ["Rykker"],
      }),
      +1,
    );
    for (const word of ["kontingentet", "opkræves", "betaling", "økonomi", "regnskab", "rykker"]) {
      expect(v.hasTerm(normaliseWord(word)), word).toBe(true);
    }
    expect(v.hasTerm("kontingentet")).toBe(false); // terms are stems, not words
    expect(v.size).toBe(6);
  });

  it("should leave out stop words", () => {
    const v = new Vocabulary();
    v.count(article("og i at det"), +1);
    expect(v.size).toBe(0);
  });

  it("should forget a word only when the last article containing it is counted out", () => {
    const v = new Vocabulary();
    const a = article("Budgettet vedtages.");
    const b = article("Budgettet følges op.");
    v.count(a, +1);
    v.count(b, +1);
    v.count(a, -1);
    expect(v.hasTerm(normaliseWord("budgettet"))).toBe(true);
    expect(v.hasTerm(normaliseWord("vedtages"))).toBe(false);
    expect(v.correct("budgetet")).toBeDefined();
    v.count(b, -1);
    expect(v.hasTerm(normaliseWord("budgettet"))).toBe(false);
    expect(v.correct("budgetet")).toBeUndefined();
    expect(v.size).toBe(0);
  });

  it("should list indexed terms with a prefix in sorted order, at most `limit`, after changes too", () => {
    const v = new Vocabulary();
    v.count(article("indsigtsanmodning indsigt indkaldelse budget"), +1);
    expect(v.termsWithPrefix("inds", 10)).toEqual([
      normaliseWord("indsigt"),
      normaliseWord("indsigtsanmodning"),
    ]);
    expect(v.termsWithPrefix("ind", 1)).toEqual([normaliseWord("indkaldelse")]);
    expect(v.termsWithPrefix("xyz", 10)).toEqual([]);
    v.count(article("indsats"), +1); // the sorted list is rebuilt after a change
    expect(v.termsWithPrefix("inds", 10)).toContain(normaliseWord("indsats"));
  });

  it("should correct within the typo budget by length: none up to 3 letters, 1 edit up to 7, 2 beyond", () => {
    const v = new Vocabulary();
    v.count(article("bog kasse sagsbehandling"), +1);
    expect(v.correct("bgo")).toBeUndefined(); // 3 letters: no budget
    expect(v.correct("kase")?.word).toBe("kasse"); // 1 edit
    expect(v.correct("kae")).toBeUndefined();
    expect(v.correct("ksae")).toBeUndefined(); // 4 letters, 2 edits: over budget
    expect(v.correct("sagsbehnadlnig")?.word).toBe("sagsbehandling"); // 2 edits (transpositions)
    expect(v.correct("sgasbehnadlnig")).toBeUndefined(); // 3 edits
  });

  it("should prefer the closest word, then the word more articles contain, and give its index term", () => {
    const v = new Vocabulary();
    v.count(article("kasse"), +1);
    v.count(article("masse"), +1);
    v.count(article("masse"), +1);
    expect(v.correct("kasse")).toEqual({ term: normaliseWord("kasse"), word: "kasse" }); // distance 0
    expect(v.correct("wasse")).toEqual({ term: normaliseWord("masse"), word: "masse" }); // tie: more articles
  });

  it("should match letters as folded (æ ø å) and give the word as an article writes it", () => {
    const v = new Vocabulary();
    v.count(article("Afgørelsen"), +1);
    expect(v.correct("afgoerelsen")?.word).toBe("afgørelsen");
    expect(v.correct("afgørelsne")?.word).toBe("afgørelsen");
  });

  it("should forget everything on clear()", () => {
    const v = new Vocabulary();
    v.count(article("budget"), +1);
    v.clear();
    expect(v.size).toBe(0);
    expect(v.hasTerm("budget")).toBe(false);
    expect(v.termsWithPrefix("bud", 5)).toEqual([]);
  });
});

describe("KnowledgeIndex typo tolerance", () => {
  it.each([
    ["sagsbehandlnig", "Sagsbehandling af ansøgninger tager 20 arbejdsdage."],
    ["generalforsmaling", "Den ordinære generalforsamling holdes i april."],
    ["kontingnet", "Kontingentet opkræves i januar."],
  ])("should find the article for the misspelling '%s'", async (typo, content) => {
    const target = buildArticle({ content });
    const index = await indexWith(
      target,
      buildArticle({ content: "Noget helt andet om kontorets indretning." }),
    );
    const result = index.search(typo);
    expect(result.hits.map((h) => h.articleId)).toEqual([target.id]);
    expect(result.query.corrections).toHaveLength(1);
    expect(result.query.corrections[0].from).toBe(typo);
    expect(marked(result.hits[0])).toHaveLength(1);
  });

  it("should not correct very short words or words far from any indexed word", async () => {
    const index = await indexWith(buildArticle({ content: "Budget og regnskab." }));
    expect(index.search("bud").total).toBe(1); // a prefix, not a typo
    expect(index.search("xqzwv").total).toBe(0);
    expect(index.search("rgn").total).toBe(0);
  });
});
