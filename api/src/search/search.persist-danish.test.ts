/**
 * A restored index reads the Danish dictionary only after the start (search.danish.ts preloadDanishSoon): a query
 * that needs it before then (a typo, a compound the index does not have) loads it itself and is answered exactly
 * as by the index the snapshot was taken from. Fresh module instances, so the dictionary starts unread.
 */
import { describe, expect, it, vi } from "vitest";
import { sampleArticles } from "./search.test-helpers";

const QUERIES = ["sagsbehandlnig", "arbejdslaptop", "klagefristen", "Hvad er klagefristen?"];

async function freshModules() {
  vi.resetModules();
  const [{ KnowledgeIndex }, persist, danish] = await Promise.all([
    import("./search.index"),
    import("./search.persist"),
    import("./search.danish"),
  ]);
  return { KnowledgeIndex, ...persist, ...danish };
}

describe("restored index and the Danish dictionary", () => {
  it("should answer a query that needs the dictionary before it was preloaded, as the original index does", async () => {
    const built = await freshModules();
    const original = new built.KnowledgeIndex();
    await original.rebuildFrom(await sampleArticles());
    expect(built.danishLoaded()).toBe(true); // a build reads it at once
    const expected = QUERIES.map((q) => JSON.stringify(original.search(q, { limit: 20 })));
    const snapshot = built.snapshotIndex(original.persistedState());

    const restored = await freshModules();
    expect(restored.danishLoaded()).toBe(false);
    const index = new restored.KnowledgeIndex();
    await index.restore(snapshot);
    expect(restored.danishLoaded()).toBe(false); // not on the start's critical path
    expect(QUERIES.map((q) => JSON.stringify(index.search(q, { limit: 20 })))).toEqual(expected);
    expect(restored.danishLoaded()).toBe(true); // the typo's query read it
    expect(original.search("sagsbehandlnig").query).toEqual(index.search("sagsbehandlnig").query);
  });
});
