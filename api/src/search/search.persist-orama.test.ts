/**
 * A restored index's posting sets (search.postings.ts PostingSet) keep their ids in an Int32Array through searches
 * and edits: an edit of a few articles touches most words' documents, and each one opened into a Set cost ~190 MB
 * at 20,000 articles (issue 16).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { snapshotIndex } from "./search.persist";
import { PostingSet } from "./search.postings";
import { buildArticle, postingSets, sampleArticles, tableSize } from "./search.test-helpers";
import type { IndexableArticle } from "./search.types";

let articles: IndexableArticle[];
beforeAll(async () => {
  articles = await sampleArticles();
});

describe("restored posting sets", () => {
  it("should keep every restored word's documents in an array through searches, edits, removals and additions", async () => {
    const built = new KnowledgeIndex();
    await built.rebuildFrom(articles);
    const loaded = new KnowledgeIndex();
    await loaded.restore(snapshotIndex(built.persistedState()));
    const edited = { ...articles[0], content: `${articles[0].content}\n\n## Nyt afsnit\n\nKlagefrist.\n` };
    for (const index of [built, loaded]) {
      for (const q of ["klagefrist", "attestation", "persondata", "ferie"]) {
        index.search(q);
        await index.retrieve(q, { k: 5 });
      }
      await index.upsertArticle(edited);
      await index.upsertArticle({ ...articles[2], title: `${articles[2].title} (rettet)` });
      await index.removeArticle(articles[1].id);
      await index.upsertArticle(buildArticle({ title: "Kaktuspleje", content: "Vand kaktussen sjældent." }));
    }
    expect(loaded.search("klagefrist")).toEqual(built.search("klagefrist"));
    const { articleDb, passageDb } = loaded.persistedState();
    for (const db of [articleDb, passageDb]) {
      const restored = postingSets(db).filter((d) => d instanceof PostingSet);
      expect(restored.length).toBeGreaterThan(100);
      // the edits reached them: the edited article's id was removed from and added back to these
      expect(restored.filter((d) => d.size > 0).length).toBeGreaterThan(100);
      expect(restored.filter((d) => tableSize.call(d) > 0)).toEqual([]);
    }
  });
});
