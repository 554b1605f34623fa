/**
 * Importing folders of Markdown articles: idempotent by path (second run: all unchanged), updates by content
 * hash, all-or-nothing on an invalid file, sample content only into an empty store — and the real CLI in another
 * process importing into the running server's store, which the server then finds without a restart. Also
 * saveFromSource (create or update by source + external id, as the Notion sync uses it) and the hooks that tell
 * other features of renamed and deleted articles.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { withDatabase } from "@vidensbank/embedded-mongo/uri";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql } from "../testing/client";
import { ArticleModel } from "./article.model";
import { ContentError } from "./content";
import { KnowledgeCatalog } from "./knowledge.catalog";
import { hashArticle, KnowledgeImporter, type SourcedArticleInput } from "./knowledge.import";

const CLI_BIN = fileURLToPath(new URL("../../../cli/bin/vidensbank.js", import.meta.url));

function article(title: string, category: string, body: string, tags: string[] = []): string {
  return `---\ntitle: ${title}\ncategory: ${category}\ntags: [${tags.join(", ")}]\n---\n# ${title}\n\n${body}\n`;
}

function tempFolder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-import-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

let app: TestApp;
let token: string;
const folders: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  token = (await createVerifiedUser(app)).token;
});
afterAll(async () => {
  await app?.close();
  for (const d of folders) fs.rmSync(d, { recursive: true, force: true });
});

async function titlesFor(query: string): Promise<string[]> {
  const res = await gql(
    app,
    "query($q: String!) { searchKnowledge(query: $q) { hits { article { title } } } }",
    { q: query },
    token,
  );
  expect(res.errors).toBeUndefined();
  return res.data.searchKnowledge.hits.map((h: { article: { title: string } }) => h.article.title);
}

describe("KnowledgeService.importDirectory", () => {
  it("should create, then leave unchanged files unwritten, then update exactly the changed file", async () => {
    const dir = tempFolder({
      "a/regnskab.md": article(
        "Kvartalsregnskab",
        "Økonomi",
        "Kvartalsregnskabet afsluttes den femte hverdag.",
      ),
      "b/ferie.md": article("Ferieplanlægning", "Procedurer", "Ferieønsker afleveres til chefen i februar.", [
        "ferie",
      ]),
    });
    folders.push(dir);
    const knowledge = app.services.knowledge;
    expect(await knowledge.importDirectory(dir)).toEqual({ created: 2, updated: 0, unchanged: 0, total: 2 });
    const stored = await ArticleModel.findOne({ source: "local", sourceId: "b/ferie.md" }).lean();
    expect(stored).toMatchObject({ title: "Ferieplanlægning", category: "Procedurer", tags: ["ferie"] });

    expect(await knowledge.importDirectory(dir)).toEqual({ created: 0, updated: 0, unchanged: 2, total: 2 });
    const again = await ArticleModel.findOne({ source: "local", sourceId: "b/ferie.md" }).lean();
    expect(again?.updatedAt).toEqual(stored?.updatedAt); // no write at all

    fs.writeFileSync(
      path.join(dir, "b/ferie.md"),
      article("Ferieplanlægning", "Procedurer", "Ferieønsker afleveres nu til sekretariatschefen i januar.", [
        "ferie",
      ]),
    );
    expect(await knowledge.importDirectory(dir)).toEqual({ created: 0, updated: 1, unchanged: 1, total: 2 });
    expect(await ArticleModel.countDocuments({ sourceId: "b/ferie.md" })).toBe(1);
    expect(await titlesFor("sekretariatschefen januar")).toContain("Ferieplanlægning");
  });

  it("should import nothing when one file is invalid, naming the file and field", async () => {
    const dir = tempFolder({
      "god.md": article("En god artikel", "Roller", "Gyldig tekst om roller."),
      "daarlig.md": "---\ntitle: Uden kategori\n---\nTekst.\n",
    });
    folders.push(dir);
    const before = await ArticleModel.countDocuments({});
    const err = await app.services.knowledge.importDirectory(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect(err).toMatchObject({ file: "daarlig.md", field: "category" });
    expect(await ArticleModel.countDocuments({})).toBe(before);
  });

  it("should import the sample content only into an empty store", async () => {
    const before = await ArticleModel.countDocuments({});
    expect(before).toBeGreaterThanOrEqual(24);
    expect(await app.services.knowledge.ensureSampleContent()).toBeNull();
    expect(await ArticleModel.countDocuments({})).toBe(before);
  });
});

describe("saveFromSource: create or update by source and external id", () => {
  const notionPage = (fields: Partial<SourcedArticleInput> = {}): SourcedArticleInput => ({
    source: "notion",
    sourceId: "page-0001",
    sourceUrl: "https://www.notion.so/page-0001",
    title: "Notion-side",
    content: "# Notion-side\n\nSkrevet i Notion om tavlemøder.\n",
    category: "Procedurer",
    ...fields,
  });

  function importerWithHooks() {
    const calls: string[] = [];
    const catalog = new KnowledgeCatalog();
    const importer = new KnowledgeImporter(catalog, {
      articleDeleted: async (id) => void calls.push(`deleted ${id}`),
      articleRenamed: async (id, title) => void calls.push(`renamed ${id} ${title}`),
    });
    const found = (q: string) => catalog.index.search(q).hits.map((h) => h.articleId);
    return { importer, calls, found };
  }

  it("should create once, write nothing for the same content, and update in place when it changes", async () => {
    const { importer, calls, found } = importerWithHooks();
    const created = await importer.saveFromSource(notionPage());
    expect(created.status).toBe("created");
    expect(created.article).toMatchObject({ source: "notion", sourceId: "page-0001", title: "Notion-side" });
    expect(found("tavlemøder")).toEqual([created.article.id]);

    const same = await importer.saveFromSource(notionPage());
    expect(same).toMatchObject({ status: "unchanged", article: { id: created.article.id } });
    expect(same.article.updatedAt).toEqual(created.article.updatedAt); // no write

    const moved = await importer.saveFromSource(
      notionPage({ sourceUrl: "https://www.notion.so/ny-adresse" }),
    );
    expect(moved).toMatchObject({
      status: "updated",
      article: { sourceUrl: "https://www.notion.so/ny-adresse" },
    });

    const edited = await importer.saveFromSource(
      notionPage({ content: "# Notion-side\n\nNu om stående møder.\n", sourceUrl: moved.article.sourceUrl }),
    );
    expect(edited).toMatchObject({ status: "updated", article: { id: created.article.id } });
    // the old word is gone ('tavlemøder' itself now finds the article by its head, 'møder', a compound split)
    expect(found("tavle")).toEqual([]);
    expect(found("stående")).toEqual([created.article.id]);
    expect(await ArticleModel.countDocuments({ source: "notion", sourceId: "page-0001" })).toBe(1);
    expect(calls).toEqual([]); // the title never changed

    // the same external id in another source is another article
    const local = await importer.saveFromSource(notionPage({ source: "local" }));
    expect(local.status).toBe("created");
    expect(local.article.id).not.toBe(created.article.id);
    await importer.deleteFromSource("local", "page-0001");
  });

  it("should announce a changed title and a deleted article through the hooks, and only then", async () => {
    const { importer, calls, found } = importerWithHooks();
    const { article } = await importer.saveFromSource(notionPage({ sourceId: "page-0002" }));
    await importer.saveFromSource(notionPage({ sourceId: "page-0002", title: "Nyt navn" }));
    expect(calls).toEqual([`renamed ${article.id} Nyt navn`]);

    expect(await importer.deleteFromSource("notion", "page-0002")).toBe(true);
    expect(calls).toEqual([`renamed ${article.id} Nyt navn`, `deleted ${article.id}`]);
    expect(found("tavlemøder")).toEqual([]);
    expect(await importer.deleteFromSource("notion", "page-0002")).toBe(false); // nothing to delete
    expect(calls).toHaveLength(2);
  });

  it("should refuse invalid fields before writing anything", async () => {
    const { importer } = importerWithHooks();
    await expect(
      importer.saveFromSource(notionPage({ sourceId: "page-0003", title: " " })),
    ).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
    });
    expect(await ArticleModel.countDocuments({ sourceId: "page-0003" })).toBe(0);
  });

  it("should hash the fields an article shows, and only those", () => {
    const base = { title: "T", content: "C", category: "K", subcategory: null, tags: ["a"] };
    expect(hashArticle(base)).toBe(hashArticle({ ...base, subcategory: undefined }));
    for (const change of [
      { title: "T2" },
      { content: "C2" },
      { category: "K2" },
      { subcategory: "S" },
      { tags: [] },
    ]) {
      expect(hashArticle({ ...base, ...change }), JSON.stringify(change)).not.toBe(hashArticle(base));
    }
  });
});

describe("changes made outside this process", () => {
  it("should notice an article edited and one deleted directly in the store, and leave unchanged ones alone", async () => {
    const admin = await app.services.users.findByLogin(app.admin.email);
    const knowledge = app.services.knowledge;
    const edited = await knowledge.createArticle(admin, {
      title: "Nøgleboks",
      content: "# Nøgleboks\n\nNøglerne til mødelokalerne hænger i nøgleboksen ved døren.\n",
      category: "Procedurer",
    });
    const deleted = await knowledge.createArticle(admin, {
      title: "Printerpapir",
      content: "# Printerpapir\n\nPrinterpapiret bestilles via indkøbsportalen.\n",
      category: "Procedurer",
    });
    expect(await titlesFor("mødelokalerne")).toContain("Nøgleboks");
    expect(await titlesFor("indkøbsportalen")).toContain("Printerpapir");

    // what another server or the CLI would do: write the store, not this process's memory
    await ArticleModel.updateOne(
      { _id: edited.id },
      {
        $set: { content: "# Nøgleboks\n\nNøglerne udleveres nu af vagtcentralen.\n", updatedAt: new Date() },
      },
    );
    await ArticleModel.deleteOne({ _id: deleted.id });

    await expect
      .poll(() => titlesFor("vagtcentralen"), { timeout: 10_000, interval: 250 })
      .toContain("Nøgleboks");
    expect(await titlesFor("mødelokalerne")).not.toContain("Nøgleboks");
    expect(await titlesFor("indkøbsportalen")).not.toContain("Printerpapir");
    expect(await titlesFor("sagsbehandlingen")).toContain("Frister i sagsbehandlingen");
  });
});

describe("vidensbank knowledge import (another process) and the running server", () => {
  it("should import through the CLI, be idempotent on a second run, and be found by the server without a restart", async () => {
    const dir = tempFolder({
      "nyhedsbrev.md": article(
        "Nyhedsbrevets udsendelse",
        "Procedurer",
        "Nyhedsbrevet udsendes af kommunikationsmedarbejderen hver torsdag.",
      ),
      "mentor.md": article(
        "Mentorordning",
        "Roller",
        "Hver nyansat får tildelt en mentorkollega den første uge.",
      ),
    });
    folders.push(dir);
    const env = {
      ...process.env,
      MONGODB_URI: withDatabase(app.dbUri, mongoose.connection.name),
      DATA_DIR: dir,
      LOG_LEVEL: "silent",
      NODE_ENV: "test",
    };
    const cli = promisify(execFile);
    const first = await cli(process.execPath, [CLI_BIN, "knowledge", "import", dir], {
      env,
      timeout: 60_000,
    });
    expect(first.stdout).toContain("2 artikler (2 oprettet, 0 opdateret, 0 uændret)");

    // the server was not told: it notices the store changed (checked at most every few seconds)
    await expect
      .poll(() => titlesFor("kommunikationsmedarbejderen"), { timeout: 10_000, interval: 250 })
      .toContain("Nyhedsbrevets udsendelse");
    expect(await titlesFor("mentorkollega")).toContain("Mentorordning");
    const retrieved = await app.services.knowledge.retrievePassages("hvem udsender nyhedsbrevet", 3);
    expect(retrieved[0]?.title).toBe("Nyhedsbrevets udsendelse");

    const second = await cli(process.execPath, [CLI_BIN, "knowledge", "import", dir, "--json"], {
      env,
      timeout: 60_000,
    });
    expect(JSON.parse(second.stdout.trim().split("\n").pop() ?? "")).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
      total: 2,
    });
    expect(await ArticleModel.countDocuments({ sourceId: { $in: ["nyhedsbrev.md", "mentor.md"] } })).toBe(2);
  });
});

describe("sample content on a later start", () => {
  it("should not fill the store again after every article was removed", async () => {
    await ArticleModel.deleteMany({});
    expect(await app.services.knowledge.ensureSampleContent()).toBeNull();
    expect(await ArticleModel.countDocuments({})).toBe(0);
    expect(await titlesFor("sagsbehandlingen")).toEqual([]);
  });
});
