import { describe, expect, it } from "vitest";
import { normaliseWord } from "./search.analyzer";
import {
  ARTICLE_BOOST,
  externalIds,
  insertArticleDoc,
  insertPassageDoc,
  newArticleDb,
  newPassageDb,
  type OramaArticle,
  PASSAGE_BOOST,
  removeDoc,
} from "./search.orama";
import { TERM_END } from "./search.query";
import { scoreTopK } from "./search.scorer";

function article(id: string, fields: Partial<OramaArticle> = {}): OramaArticle {
  return { id, title: `Artikel ${id}`, content: "Tekst.", category: "Procedurer", tags: [], ...fields };
}

/** The whole-word query term of a written word (as search.query.ts makes it). */
const whole = (word: string) => `${normaliseWord(word)}${TERM_END}`;

describe("the orama layout", () => {
  it("should index documents as Danish whole-word terms: a query term only matches as a prefix without TERM_END", () => {
    const db = newArticleDb();
    insertArticleDoc(db, article("dag", { content: "Svar samme dag." }));
    insertArticleDoc(db, article("dagsorden", { content: "Dagsordenen sendes ud." }));
    const ids = (term: string) =>
      scoreTopK(db, [term], { fields: ARTICLE_BOOST, k: 10 }).top.map((t) => t.id);
    expect(ids(whole("dag"))).toEqual(["dag"]);
    expect(ids("dag").sort()).toEqual(["dag", "dagsorden"]);
  });

  it("should rank a word in a section heading above the same word in the body", () => {
    const db = newArticleDb();
    insertArticleDoc(db, article("body", { content: "# Intro\n\nHer står noget om budget og meget andet." }));
    insertArticleDoc(
      db,
      article("heading", { content: "# Budget\n\nHer står noget om tal og meget andet." }),
    );
    const top = scoreTopK(db, [whole("budget")], { fields: ARTICLE_BOOST, k: 10 }).top;
    expect(top.map((t) => t.id)).toEqual(["heading", "body"]);
  });

  it("should give each passage its article's title and tags, and its own headings", () => {
    const db = newPassageDb();
    const a = article("a", { title: "Kontingent", tags: ["økonomi"] });
    const passage = {
      id: "a#0",
      articleId: "a",
      title: a.title,
      category: a.category,
      headingPath: ["Rykkere"],
      text: "Betales senest den 1.",
      position: 0,
      wordCount: 4,
    };
    insertPassageDoc(db, a, passage);
    for (const word of ["kontingent", "økonomi", "rykkere", "betales"]) {
      const top = scoreTopK(db, [whole(word)], { fields: PASSAGE_BOOST, k: 10 }).top;
      expect(
        top.map((t) => t.id),
        word,
      ).toEqual(["a#0"]);
    }
  });

  it("should remove a document and map internal ids back to ours", () => {
    const db = newArticleDb();
    insertArticleDoc(db, article("x", { content: "Alfa." }));
    insertArticleDoc(db, article("y", { content: "Alfa." }));
    const idOf = externalIds(db);
    expect([idOf(1), idOf(2)]).toEqual(["x", "y"]);
    removeDoc(db, "x");
    expect(scoreTopK(db, [whole("alfa")], { fields: ARTICLE_BOOST, k: 10 }).top.map((t) => t.id)).toEqual([
      "y",
    ]);
    expect(() => removeDoc(db, "findes-ikke")).not.toThrow();
  });
});
