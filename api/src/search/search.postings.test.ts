/**
 * A word's documents in an Int32Array (search.postings.ts PostingSet) behave as orama's Set did: the same ids in
 * the same order (the scorer's tie-break and the persisted file read that order), through re-adds; and a built
 * index holds them too, not Sets, and no copies of its documents, as a restored one (issue 16: +440 MB of heap
 * for a build at 20,000 articles).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { PostingSet } from "./search.postings";
import { buildArticle, postingSets, sampleArticles, tableSize } from "./search.test-helpers";
import type { IndexableArticle } from "./search.types";

/** Asserts that a PostingSet answers as the Set it mirrors: order, size, entries, forEach and has(). */
function expectSame(posting: PostingSet, set: Set<number>, probe: Iterable<number>): void {
  expect([...posting]).toEqual([...set]);
  expect(posting.size).toBe(set.size);
  expect([...posting.entries()]).toEqual([...set.entries()]);
  const seen: number[] = [];
  posting.forEach((id) => {
    seen.push(id);
  });
  expect(seen).toEqual([...set.keys()]);
  const ids = [...probe];
  expect(ids.filter((id) => posting.has(id))).toEqual(ids.filter((id) => set.has(id)));
}

describe("posting sets", () => {
  it("should behave as a Set: has, size, insertion order, a re-added id last, delete, clear", () => {
    const ids = [3, 5, 8, 13, 21, 34];
    const posting = new PostingSet(Int32Array.from(ids));
    const set = new Set(ids);
    const probe = [0, 1, 2, 3, 5, 7, 8, 9, 13, 21, 34, 55];
    expectSame(posting, set, probe);
    const steps: Array<[op: "add" | "delete", id: number]> = [
      ["delete", 8], // from the middle of a view of the snapshot's integers
      ["delete", 99], // absent
      ["add", 55], // after the largest: still ascending
      ["add", 5], // present: no change
      ["add", 8], // re-added (an edited document keeps its id): goes last
      ["delete", 3],
      ["add", 1],
      ["delete", 55],
      ["add", 2],
      ["delete", 8], // the re-added ones, from the tail
      ["delete", 1],
      ["delete", 2],
      ["add", 7], // the tail emptied: ascending again, then a re-add
    ];
    for (const [op, id] of steps) {
      expect(posting[op](id) === posting).toBe(set[op](id) === set); // add returns the set, delete a boolean
      if (op === "delete") expect(posting.has(id)).toBe(false);
      expectSame(posting, set, probe);
    }
    posting.clear();
    set.clear();
    expectSame(posting, set, probe);
    posting.add(7);
    set.add(7);
    expectSame(posting, set, probe);
  });

  it("should find every id and keep a Set's order through hundreds of re-adds", () => {
    // an index after many edits: its documents' ids removed and added back (last), new ones after them
    let seed = 20251128;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const start = Array.from({ length: 300 }, (_, i) => 2 * i + 1);
    const posting = new PostingSet(Int32Array.from(start));
    const set = new Set(start);
    let next = 1000;
    const probe = Array.from({ length: 1400 }, (_, i) => i);
    for (let step = 0; step < 600; step++) {
      const present = [...set];
      const r = random(10);
      if (r < 4 && present.length > 0) {
        const id = present[random(present.length)];
        expect(posting.delete(id)).toBe(set.delete(id));
      } else if (r < 8) {
        const id = random(700); // mostly an id below the largest: re-added, out of order
        posting.add(id);
        set.add(id);
      } else if (r < 9) {
        posting.add(next);
        set.add(next++);
      } else {
        const id = random(700);
        expect(posting.delete(id)).toBe(set.delete(id)); // often absent
      }
      if (step % 20 === 0) expectSame(posting, set, probe);
    }
    expectSame(posting, set, probe);
  });

  it("should change only its own ids in a block it shares with other lists", () => {
    const block = Int32Array.from([1, 2, 3, 4, 5, 6]);
    const a = new PostingSet(block.subarray(0, 3));
    const b = new PostingSet(block.subarray(3, 6));
    a.delete(1);
    a.add(9);
    a.add(1);
    b.delete(6);
    expect([...a]).toEqual([2, 3, 9, 1]);
    expect([...b]).toEqual([4, 5]);
  });
});

describe("a built index's posting sets", () => {
  let articles: IndexableArticle[];
  beforeAll(async () => {
    articles = await sampleArticles();
  });

  it("should hold every word's documents in PostingSets after a build, as orama's Sets held them", async () => {
    const built = new KnowledgeIndex();
    await built.rebuildFrom(articles);
    // the same articles one at a time: orama's own Sets, in the order orama fills them
    const added = new KnowledgeIndex();
    for (const a of articles) await added.upsertArticle(a);
    const edits = async (index: KnowledgeIndex) => {
      await index.upsertArticle({
        ...articles[0],
        content: `${articles[0].content}\n\n## Nyt afsnit\n\nKlagefrist.\n`,
      });
      await index.removeArticle(articles[1].id);
      await index.upsertArticle({ ...articles[3], title: `${articles[3].title} (rettet)` });
    };
    for (const state of ["built", "edited"]) {
      if (state === "edited") {
        await edits(built);
        await edits(added);
      }
      for (const db of ["articleDb", "passageDb"] as const) {
        const packed = postingSets(built.persistedState()[db]);
        const sets = postingSets(added.persistedState()[db]);
        expect(
          packed.map((d) => [...d]),
          `${state} ${db}`,
        ).toEqual(sets.map((d) => [...d]));
        const holding = packed.filter((d) => d.size > 0);
        expect(holding.length).toBeGreaterThan(100);
        if (state === "built") {
          expect(holding.filter((d) => !(d instanceof PostingSet))).toEqual([]);
          expect(holding.filter((d) => tableSize.call(d) > 0)).toEqual([]);
          // nor orama's copies of the documents (a removal puts one back first), as in a restored index
          const { docs } = built.persistedState()[db].data.docs as unknown as { docs: object };
          expect(Object.keys(docs)).toEqual([]);
        }
      }
      for (const q of ["klagefrist", "attestation", "ferie", "persondata"]) {
        expect(built.search(q)).toEqual(added.search(q));
        expect(await built.retrieve(q, { k: 5 })).toEqual(await added.retrieve(q, { k: 5 }));
      }
    }
    // a new article's new word: orama makes a Set for it, which stays one until the next build
    await built.upsertArticle(buildArticle({ title: "Kaktuspleje", content: "Vand kaktussen sjældent." }));
    expect(built.search("kaktuspleje").hits).toHaveLength(1);
  });
});
