/**
 * A restored index's posting sets (search.persist-orama.ts PostingSet): they behave as a Set (insertion order,
 * re-added ids last) and keep their ids in an Int32Array through searches and edits: an edit of a few articles
 * touches most words' documents, and each one opened into a Set cost ~190 MB at 20,000 articles (issue 16).
 */
import type { AnyOrama } from "@orama/orama";
import { beforeAll, describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { snapshotIndex } from "./search.persist";
import { PostingSet } from "./search.persist-orama";
import { buildArticle, sampleArticles } from "./search.test-helpers";
import type { IndexableArticle } from "./search.types";

type Node = { d: Set<number>; c: Map<string, Node> };

/** Every radix node's documents, over all fields of a database. */
function postingSets(db: AnyOrama): Set<number>[] {
  const out: Set<number>[] = [];
  for (const { node } of Object.values(
    (db.data.index as unknown as { indexes: Record<string, { node: Node }> }).indexes,
  )) {
    const stack = [node];
    while (stack.length > 0) {
      const n = stack.pop() as Node;
      out.push(n.d);
      for (const c of n.c.values()) stack.push(c);
    }
  }
  return out;
}

/** The ids a Set holds in its own hash table (Set.prototype's size, not an override). */
const tableSize = Object.getOwnPropertyDescriptor(Set.prototype, "size")?.get as (
  this: Set<number>,
) => number;

let articles: IndexableArticle[];
beforeAll(async () => {
  articles = await sampleArticles();
});

describe("restored posting sets", () => {
  it("should behave as a Set: has, size, insertion order, a re-added id last, delete, clear", () => {
    const ids = [3, 5, 8, 13, 21, 34];
    const posting = new PostingSet(Int32Array.from(ids));
    const set = new Set(ids);
    const same = () => {
      expect([...posting]).toEqual([...set]);
      expect(posting.size).toBe(set.size);
      expect([...posting.entries()]).toEqual([...set.entries()]);
      const seen: number[] = [];
      posting.forEach((id) => {
        seen.push(id);
      });
      expect(seen).toEqual([...set.keys()]);
      for (const id of [0, 1, 3, 5, 8, 9, 13, 21, 34, 55]) expect(posting.has(id)).toBe(set.has(id));
    };
    same();
    const steps: Array<[op: "add" | "delete", id: number]> = [
      ["delete", 8], // from the middle of a view of the snapshot's integers
      ["delete", 99], // absent
      ["add", 55], // after the largest: still ascending
      ["add", 5], // present: no change
      ["add", 8], // re-added (an edited document keeps its id): goes last, lookups scan from here on
      ["delete", 3],
      ["add", 1],
      ["delete", 55],
      ["add", 2],
    ];
    for (const [op, id] of steps) {
      expect(posting[op](id) === posting).toBe(set[op](id) === set); // add returns the set, delete a boolean
      if (op === "delete") expect(posting.has(id)).toBe(false);
      same();
    }
    posting.clear();
    set.clear();
    same();
    posting.add(7);
    set.add(7);
    same();
  });

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
