/**
 * Start-up from the persisted index, against the real (embedded) store: a second catalog (a restart) loads the
 * file instead of building, answers as the first did, then catches up with edits, deletions and additions made
 * while it was down; an unusable file (garbage, truncated, another store) means a build from the store.
 */
import fs from "node:fs";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { ArticleModel } from "./article.model";
import { KnowledgeCatalog } from "./knowledge.catalog";
import { PersistedIndex, prefetchPersistedIndex, SEARCH_INDEX_FILE } from "./knowledge.persisted-index";

let app: TestApp;
let file: string;

beforeAll(async () => {
  app = await startTestApp({ mail: "outbox" });
  file = path.join(app.config.dataDir, `catalog-${SEARCH_INDEX_FILE}`);
});
afterAll(async () => {
  await app?.close();
});

const QUERIES = ["klagefrist", "hvem attesterer udlæg", "generalforsamling", "persondata sletning"];

/** A catalog as the server builds it, persisting (from 1 article) to the test's file. */
async function start(): Promise<{ catalog: KnowledgeCatalog; loaded: boolean }> {
  const catalog = new KnowledgeCatalog({ persisted: new PersistedIndex(file, null, 1) });
  await catalog.refresh();
  const loaded = catalog.startedFromPersisted;
  await catalog.caughtUp();
  return { catalog, loaded };
}

function answers(catalog: KnowledgeCatalog): string {
  return JSON.stringify(QUERIES.map((q) => catalog.index.search(q, { limit: 20 })));
}

/** The articles each query finds, as sets (an index caught up edit by edit may order equal scores otherwise). */
function found(catalog: KnowledgeCatalog): string {
  return JSON.stringify(
    QUERIES.map((q) => {
      const res = catalog.index.search(q, { limit: 50 });
      return [res.total, res.hits.map((h) => h.articleId).sort()];
    }),
  );
}

function titles(catalog: KnowledgeCatalog, q: string): string[] {
  return catalog.index.search(q).hits.map((h) => h.title);
}

describe("search index persisted between starts", () => {
  it("should load the persisted index on a restart, answer as before, then catch up with the store's changes", async () => {
    fs.rmSync(file, { force: true });
    const first = await start();
    expect(first.catalog.size).toBeGreaterThan(10); // the sample content
    await first.catalog.persist();
    expect(fs.existsSync(file)).toBe(true);
    const before = answers(first.catalog);

    const second = await start();
    expect(second.loaded).toBe(true);
    expect(second.catalog.index.fingerprint).toBe(first.catalog.index.fingerprint);
    expect(answers(second.catalog)).toBe(before);
    expect(JSON.stringify(second.catalog.all())).toBe(JSON.stringify(first.catalog.all()));

    // while "down": one article edited, one deleted, one added (by another process, straight in the store)
    const [edited, deleted] = await ArticleModel.find({}).sort({ _id: 1 }).limit(2);
    edited.content = `${edited.content}\n\n## Bier\n\nHonningbier i tagrenden.\n`;
    await edited.save();
    await ArticleModel.deleteOne({ _id: deleted._id });
    await ArticleModel.create({
      title: "Kaktuspleje",
      content: "# Kaktuspleje\n\nVand kaktussen sjældent.\n",
      category: "Procedurer",
      sourceId: "test/kaktus.md",
      contentHash: "kaktus",
    });

    const third = await start();
    expect(third.loaded).toBe(true);
    expect(titles(third.catalog, "honningbier")).toEqual([edited.title]);
    expect(titles(third.catalog, "kaktus")).toEqual(["Kaktuspleje"]);
    expect(third.catalog.get(String(deleted._id))).toBeUndefined();
    expect(third.catalog.index.has(String(deleted._id))).toBe(false);
    expect(third.catalog.get(String(edited._id))?.content).toContain("Honningbier");
    // the same as an index built from the store from scratch
    const fresh = new KnowledgeCatalog({});
    await fresh.refresh();
    expect(third.catalog.index.fingerprint).toBe(fresh.index.fingerprint);
    expect(found(third.catalog)).toBe(found(fresh));
    expect(third.catalog.size).toBe(fresh.size);
  });

  it("should build from the store when the file is garbage, truncated or from another store", async () => {
    const good = await start();
    await good.catalog.persist();
    const bytes = fs.readFileSync(file);
    const expected = found(good.catalog);

    const cases: [string, () => Promise<void>][] = [
      ["garbage", async () => fs.writeFileSync(file, "garbage")],
      ["truncated", async () => fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)))],
      [
        "another store",
        async () => {
          fs.writeFileSync(file, bytes);
          await mongoose.connection
            .collection<{ _id: string; value: string }>("knowledge_meta")
            .updateOne({ _id: "search-index-store" }, { $set: { value: "another-store" } });
        },
      ],
    ];
    for (const [name, spoil] of cases) {
      await spoil();
      const restarted = await start();
      expect(restarted.loaded, name).toBe(false);
      expect(found(restarted.catalog), name).toBe(expected);
    }
    // ... and writes a good one again, which the next start loads
    const rebuilt = await start();
    await rebuilt.catalog.persist();
    expect((await start()).loaded).toBe(true);
  });

  it("should take a read started before the database connected (start.ts) in the next load, once", async () => {
    const good = await start();
    await good.catalog.persist();
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, "garbage");
    await prefetchPersistedIndex(file); // read while garbage
    fs.writeFileSync(file, bytes);
    expect((await start()).loaded).toBe(false); // the load took the garbage read, not the file as it is now
    expect((await start()).loaded).toBe(true); // and only once
  });

  it("should persist nothing below the minimum number of articles", async () => {
    const small = path.join(app.config.dataDir, "small.bin");
    const catalog = new KnowledgeCatalog({ persisted: new PersistedIndex(small, null, 100_000) });
    await catalog.refresh();
    await catalog.persist();
    expect(fs.existsSync(small)).toBe(false);
  });
});
