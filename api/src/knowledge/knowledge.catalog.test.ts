/**
 * The catalog's store check (ensureFresh): a read waits for it while nothing else keeps memory in step, and
 * never while a caught-up change stream does (the check then runs in the background as a safety net, and still
 * brings in what the stream would have missed).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { ArticleModel } from "./article.model";
import { CATALOG_FOLLOWED_LAG_MS, KnowledgeCatalog } from "./knowledge.catalog";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const CHECK_MS = 50;
const HOLD_MS = 600;

/** How long ensureFresh() takes while the catalog's queue is busy for HOLD_MS (the check waits behind it). */
async function freshnessWait(catalog: KnowledgeCatalog): Promise<number> {
  const held = catalog.exclusive(() => new Promise((r) => setTimeout(r, HOLD_MS)));
  await new Promise((r) => setTimeout(r, CHECK_MS + 10)); // the check is due
  const t0 = performance.now();
  await catalog.ensureFresh();
  const ms = performance.now() - t0;
  await held;
  return ms;
}

function newArticle(title: string) {
  return ArticleModel.create({
    title,
    content: `${title} i sekretariatet.`,
    category: "Test",
    source: "local",
    sourceId: `catalog-test-${title}`,
    contentHash: title,
  });
}

describe("KnowledgeCatalog.ensureFresh", () => {
  it("should make a read wait for the store check unless a caught-up change stream follows the store", async () => {
    const catalog = new KnowledgeCatalog({ checkIntervalMs: CHECK_MS });
    await catalog.refresh();
    expect(await freshnessWait(catalog)).toBeGreaterThan(HOLD_MS / 2);

    let caughtUp = Date.now();
    const tick = setInterval(() => {
      caughtUp = Date.now();
    }, 20);
    try {
      catalog.follow(() => caughtUp);
      expect(await freshnessWait(catalog)).toBeLessThan(HOLD_MS / 4);

      // the background check still brings in an article the stream did not report
      const doc = await newArticle("Baggrundstjek");
      await new Promise((r) => setTimeout(r, CHECK_MS + 10));
      await catalog.ensureFresh();
      const seen = Date.now();
      while (!catalog.get(String(doc._id)) && Date.now() - seen < 2_000)
        await new Promise((r) => setTimeout(r, 20));
      expect(catalog.get(String(doc._id))?.title).toBe("Baggrundstjek");

      // changes may have been missed: the next read waits for the comparison with the store
      catalog.markStale();
      expect(await freshnessWait(catalog)).toBeGreaterThan(HOLD_MS / 2);
    } finally {
      clearInterval(tick);
    }
    // a stalled stream (no progress for longer than CATALOG_FOLLOWED_LAG_MS): reads wait again
    catalog.follow(() => Date.now() - CATALOG_FOLLOWED_LAG_MS - 1_000);
    expect(await freshnessWait(catalog)).toBeGreaterThan(HOLD_MS / 2);
  }, 20_000);
});
