/**
 * The persisted index: a snapshot written to a file and read back answers exactly like the index it was taken
 * from (and keeps answering alike after edits); a file that is truncated, garbage, from other code or
 * tampered with is refused; two writers at once leave one whole file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { indexFormatKey, snapshotIndex } from "./search.persist";
import { readSnapshotFile, writeSnapshotFile } from "./search.snapshot-file";
import { buildArticle, hashedEmbedder, sampleArticles } from "./search.test-helpers";
import type { IndexableArticle } from "./search.types";

const QUERIES = [
  "Hvad er klagefristen?",
  "hvem attesterer udlæg",
  "sagsbehandlnig",
  "generalfors",
  "kontingent rykker",
  "sletning af persondata",
  "økonomimedarbejder",
  "dag",
];

let dir: string;
let articles: IndexableArticle[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-persist-"));
  articles = await sampleArticles();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function save(index: KnowledgeIndex, file: string, meta: unknown = {}): Promise<void> {
  const snap = snapshotIndex(index.persistedState());
  await writeSnapshotFile(file, { key: indexFormatKey(), meta, ...snap });
}

async function load(file: string, synonyms?: string[][]) {
  const read = await readSnapshotFile(file, indexFormatKey());
  if (!read.ok) throw new Error(read.reason);
  const index = new KnowledgeIndex(synonyms ? { embed: hashedEmbedder(synonyms).embed } : {});
  const { ints, floats, text } = read.file;
  await index.restore({ json: read.file.json as never, ints, floats, text });
  return index;
}

/** What the index answers to every query: search (with snippets) and retrieval, as JSON. */
async function answers(index: KnowledgeIndex): Promise<string> {
  const out: unknown[] = [];
  for (const q of QUERIES) {
    out.push(index.search(q, { limit: 20 }), await index.retrieve(q, { k: 8 }));
    out.push(index.search(q, { category: "Økonomi" }));
  }
  return JSON.stringify(out);
}

describe("persisted search index", () => {
  it("should answer every query exactly as the index it was saved from, with the same fingerprint and passages", async () => {
    const built = new KnowledgeIndex();
    await built.rebuildFrom(articles);
    const file = path.join(dir, "roundtrip.bin");
    await save(built, file);
    const loaded = await load(file);
    expect(loaded.fingerprint).toBe(built.fingerprint);
    expect(loaded.stats()).toEqual({ ...built.stats(), version: loaded.version });
    expect(await answers(loaded)).toBe(await answers(built));
    expect(built.search("klagefrist").total).toBeGreaterThan(0); // the comparison is not of empty answers
    for (const a of articles) expect(loaded.passagesOf(a.id)).toEqual(built.passagesOf(a.id));
  });

  it("should keep answering alike after the same edits, removals and additions on both", async () => {
    const built = new KnowledgeIndex();
    await built.rebuildFrom(articles);
    const file = path.join(dir, "edits.bin");
    await save(built, file);
    const loaded = await load(file);
    const edited = {
      ...articles[0],
      content: `${articles[0].content}\n\n## Nyt afsnit\n\nZebrafinker i haven.\n`,
    };
    const added = buildArticle({
      title: "Kaktuspleje",
      content: "# Kaktuspleje\n\nVand kaktussen sjældent.\n",
    });
    for (const index of [built, loaded]) {
      await index.upsertArticle(edited);
      await index.removeArticle(articles[1].id);
      await index.upsertArticle(added);
    }
    expect(loaded.fingerprint).toBe(built.fingerprint);
    expect(loaded.search("zebrafinker").hits.map((h) => h.articleId)).toEqual([articles[0].id]);
    expect(loaded.search("kaktus").hits.map((h) => h.articleId)).toEqual([added.id]);
    expect(loaded.has(articles[1].id)).toBe(false);
    expect(await answers(loaded)).toBe(await answers(built));
  });

  it("should round-trip text beyond Latin-1 (quotes, dashes, emoji) and passages that are not a slice of the content", async () => {
    const odd = buildArticle({
      title: "Citater – “anførselstegn” og ✓ flueben",
      content:
        "# Kontingent 😀\n\nKontingentet er 500 € – betales “straks” ✓.\n\n## Rykker\n\nRykkeren sendes efter 14 dage 🙂.\n",
      tags: ["økonomi", "“citat”"],
    });
    const built = new KnowledgeIndex();
    await built.rebuildFrom([...articles, odd]);
    // a passage whose text is not in its article's content is written as text (not as a slice of the content)
    const state = built.persistedState();
    const stored = state.articles.get(odd.id);
    if (!stored) throw new Error("not indexed");
    const original = stored.passages[0].text;
    stored.passages[0].text = `${original} (ændret i hukommelsen)`;
    const file = path.join(dir, "unicode.bin");
    await save(built, file);
    stored.passages[0].text = original;
    const loaded = await load(file);
    expect(loaded.passagesOf(odd.id)[0].text).toBe(`${original} (ændret i hukommelsen)`);
    expect(loaded.passagesOf(odd.id).slice(1)).toEqual(built.passagesOf(odd.id).slice(1));
    expect(loaded.search("kontingent 😀").hits.map((h) => h.title)).toContain(odd.title);
    expect(JSON.stringify(loaded.search("anførselstegn"))).toBe(
      JSON.stringify(built.search("anførselstegn")),
    );
    expect(loaded.search("rykker").hits.find((h) => h.articleId === odd.id)?.snippet).toBe(
      built.search("rykker").hits.find((h) => h.articleId === odd.id)?.snippet,
    );
  });

  it("should keep the articles' text as Latin-1 when it has no other character, and answer alike", async () => {
    const plain = [
      buildArticle({
        title: "Kørselsgodtgørelse",
        content: "# Kørsel\n\nGodtgørelse pr. kilometer udbetales månedligt.\n",
      }),
      buildArticle({ title: "Ferie", content: "# Ferie\n\nFerie aftales med lederen i god tid.\n" }),
    ];
    const built = new KnowledgeIndex();
    await built.rebuildFrom(plain);
    const file = path.join(dir, "latin1.bin");
    await save(built, file);
    const bytes = fs.readFileSync(file);
    expect(bytes.toString("utf8", 0, bytes.indexOf(10, 30))).toContain('"textLatin1":true');
    expect(bytes.includes(Buffer.from("Godtgørelse pr. kilometer", "latin1"))).toBe(true);
    const loaded = await load(file);
    expect(JSON.stringify(loaded.search("kilometer"))).toBe(JSON.stringify(built.search("kilometer")));
    expect(loaded.passagesOf(plain[0].id)).toEqual(built.passagesOf(plain[0].id));
  });

  it("should write a loaded index again without using its words first, and read that back alike", async () => {
    const built = new KnowledgeIndex();
    await built.rebuildFrom(articles);
    const first = path.join(dir, "first.bin");
    await save(built, first);
    const loaded = await load(first);
    const second = path.join(dir, "second.bin");
    await save(loaded, second); // nothing searched: the restored words' documents are written as read
    const again = await load(second);
    expect(again.fingerprint).toBe(built.fingerprint);
    expect(await answers(again)).toBe(await answers(built));
    // and a loaded index edited before writing (its words' documents in use) reads back alike as well
    await loaded.removeArticle(articles[2].id);
    await built.removeArticle(articles[2].id);
    await save(loaded, second);
    expect(await answers(await load(second))).toBe(await answers(built));
  });

  it("should keep passage vectors (hybrid retrieval answers alike, nothing left to embed)", async () => {
    const built = new KnowledgeIndex({ embed: hashedEmbedder().embed });
    await built.rebuildFrom(articles);
    const file = path.join(dir, "hybrid.bin");
    await save(built, file);
    const loaded = await load(file, []);
    expect(loaded.stats().pendingEmbeddings).toBe(0);
    expect(loaded.stats().embeddedPassages).toBe(built.stats().embeddedPassages);
    const r = await loaded.retrieve("Hvad er klagefristen?", { k: 5 });
    expect(r.mode).toBe("hybrid");
    expect(JSON.stringify(r)).toBe(JSON.stringify(await built.retrieve("Hvad er klagefristen?", { k: 5 })));
  });

  it("should refuse a missing, truncated, garbage, tampered or other-format file with a reason", async () => {
    const built = new KnowledgeIndex();
    await built.rebuildFrom(articles);
    const file = path.join(dir, "good.bin");
    await save(built, file);
    const bytes = fs.readFileSync(file);
    const variant = (name: string, data: Buffer | string) => {
      const f = path.join(dir, name);
      fs.writeFileSync(f, data);
      return f;
    };
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 10] ^= 0xff; // in the JSON
    const tamperedInts = Buffer.from(bytes);
    tamperedInts[bytes.indexOf(10, bytes.indexOf(10) + 1) + 9] ^= 0x01; // a number of the index
    const header = bytes.subarray(0, bytes.indexOf(10, bytes.indexOf(10) + 1) + 1);
    const cases: [string, string][] = [
      [path.join(dir, "missing.bin"), "no persisted index"],
      [variant("truncated.bin", bytes.subarray(0, bytes.length - 1000)), "truncated"],
      [variant("garbage.bin", "nonsense\n{}\n"), "not an index"],
      [variant("tampered.bin", tampered), "checksum"],
      [variant("tampered-ints.bin", tamperedInts), "checksum"],
      [variant("header-only.bin", header), "truncated"],
      [variant("overlong.bin", Buffer.concat([bytes, Buffer.from(" ")])), "overlong"],
      [variant("header.bin", `vidensbank-search-index\n{"key":`), "bad header"],
    ];
    for (const [f, reason] of cases) {
      const read = await readSnapshotFile(f, indexFormatKey());
      expect(read.ok).toBe(false);
      expect(read.ok ? "" : read.reason).toContain(reason);
    }
    const other = await readSnapshotFile(file, "another-format-key");
    expect(other.ok ? "" : other.reason).toContain("format key");
  });

  it("should leave the index as it was when a snapshot does not hang together", async () => {
    const index = new KnowledgeIndex();
    await index.rebuildFrom(articles);
    const before = await answers(index);
    const snap = snapshotIndex(index.persistedState());
    const broken = { ...snap, ints: snap.ints.subarray(0, snap.ints.length - 5) };
    await expect(index.restore(broken)).rejects.toThrow(/persisted index/);
    const extra = new Int32Array(snap.ints.length + 1);
    extra.set(snap.ints);
    await expect(index.restore({ ...snap, ints: extra })).rejects.toThrow(/left over/);
    // a passage said to lie beyond its article's content (the first article's ints: content start and end, tag
    // count, passage count; then its first passage's: heading count, text start and end, ...)
    const outside = Int32Array.from(snap.ints);
    outside[6] = 10_000_000;
    await expect(index.restore({ ...snap, ints: outside })).rejects.toThrow(/outside its article/);
    // an article said to lie beyond the snapshot's text
    const beyond = Int32Array.from(snap.ints);
    beyond[1] = snap.text.length + 1;
    await expect(index.restore({ ...snap, ints: beyond })).rejects.toThrow(/outside its article/);
    // a column shorter than the others
    const short = { ...snap.json.articles, title: snap.json.articles.title.slice(1) };
    await expect(index.restore({ ...snap, json: { ...snap.json, articles: short } })).rejects.toThrow(
      /persisted index/,
    );
    expect(await answers(index)).toBe(before);
  });

  it("should leave one whole file when two processes write at once (temporary file + rename)", async () => {
    const a = new KnowledgeIndex();
    await a.rebuildFrom(articles);
    const b = new KnowledgeIndex();
    await b.rebuildFrom(articles.slice(0, 5));
    const file = path.join(dir, "race.bin");
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        save(a, file, { who: "a" }),
        save(b, file, { who: "b" }),
        save(a, file, { who: "a" }),
      ]);
      const read = await readSnapshotFile<{ who: string }>(file, indexFormatKey());
      expect(read.ok).toBe(true);
      if (!read.ok) continue;
      const loaded = await load(file);
      expect(loaded.fingerprint).toBe(read.file.meta.who === "a" ? a.fingerprint : b.fingerprint);
    }
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
