/**
 * Notion end to end through the real @notionhq/client against the fake Notion server and the real embedded
 * store: connection, discovery with scores, the first sync and each kind of change reflected by the next
 * incremental sync in the article list, search and the chat's retrieval; admin-only enforcement; the token never
 * leaving the server.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "../logger";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { type FakeNotion, startFakeNotion } from "../testing/fake-notion";

const TOKEN = "secret_vidensbank_integration_0123456789";
let app: TestApp;
let fake: FakeNotion;
let admin: string;
let staff: string;
const logged: string[] = [];
const ids: Record<string, string> = {};
const pages: Record<string, string> = {};

beforeAll(async () => {
  fake = await startFakeNotion({ tokens: [TOKEN] });
  app = await startTestApp({
    config: { notionApiBaseUrl: fake.url },
    notion: { requestsPerSecond: 50, clientOptions: { baseDelayMs: 20 }, now: () => fake.now() },
  });
  admin = await loginAdmin(app);
  staff = (await createVerifiedUser(app)).token;
  // every log line of the whole file, at every level, to look for the token
  logger.level = "trace";
  for (const level of ["trace", "debug", "info", "warn", "error", "fatal"] as const) {
    vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => {
      logged.push(JSON.stringify(args, (_k, v) => (v instanceof Error ? `${v.message} ${v.stack}` : v)));
    }) as never);
  }
  ids.wiki = fake.addDataSource("Vidensbank artikler", { icon: "📚" });
  ids.tasks = fake.addDataSource("Opgaver", { properties: { Navn: "title", Status: "select" } });
  ids.notes = fake.addDataSource("Mødenoter", { properties: { Titel: "title", Kategori: "select" } });
  ids.plain = fake.addDataSource("Rå tekst", { properties: { Tekst: "rich_text" } });
  pages.vat = fake.addPage(ids.wiki, {
    title: "Momsafregning",
    category: "Økonomi",
    tags: ["moms", "kvartal"],
    blocks: [
      { type: "heading_1", text: "Frister" },
      { type: "paragraph", text: "Momsen afregnes kvartalsvis via skattefarvandet." },
      { type: "bulleted_list_item", text: "Første kvartal" },
    ],
  });
  pages.holiday = fake.addPage(ids.wiki, {
    title: "Ferieplanlægning",
    blocks: [{ type: "paragraph", text: "Sommerferien planlægges i marts." }],
  });
  pages.keys = fake.addPage(ids.wiki, {
    title: "Nøglebokse",
    blocks: [{ type: "paragraph", text: "Nøgleboksen står ved bagdøren." }],
  });
  pages.gone = fake.addPage(ids.wiki, {
    title: "Forældet procedure",
    blocks: [{ type: "paragraph", text: "Telefaxnummeret bruges ikke." }],
  });
  pages.meeting = fake.addPage(ids.notes, {
    title: "Bestyrelsesmøde",
    category: "Møder",
    blocks: [{ type: "paragraph", text: "Generalforsamlingen flyttes til oktober." }],
  });
  fake.addPage(ids.tasks, { title: "Ryd op" });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await app?.close();
  await fake?.close();
});

const syncDone = () => app.services.notion.sync.idle();
async function search(q: string): Promise<string[]> {
  const res = await rest(app, "GET", `/api/knowledge/search?q=${encodeURIComponent(q)}`, { token: staff });
  // the sample articles live beside: only the Notion ones count here
  return res.body.hits
    .filter((h: { article: { source: { kind: string } } }) => h.article.source.kind === "notion")
    .map((h: { article: { title: string } }) => h.article.title);
}
async function retrieved(q: string): Promise<string[]> {
  return (await app.services.knowledge.retrievePassages(q, 20)).map((p) => p.title);
}
async function manualSync() {
  const res = await rest(app, "POST", "/api/admin/notion/sync", { token: admin });
  expect(res.status).toBe(202);
  await syncDone();
  return (await rest(app, "GET", "/api/admin/notion/sync", { token: admin })).body;
}

describe("Notion connection", () => {
  it("should answer the status to any user and refuse everything else to a normal user", async () => {
    expect((await rest(app, "GET", "/api/auth/notion/status", { token: staff })).body).toEqual({
      connected: false,
      workspace: null,
    });
    for (const [method, path] of [
      ["POST", "/api/admin/notion/token"],
      ["GET", "/api/admin/notion/databases"],
      ["GET", "/api/admin/notion/config"],
      ["POST", "/api/admin/notion/config"],
      ["POST", "/api/admin/notion/sync"],
      ["GET", "/api/admin/notion/sync"],
      ["POST", "/api/auth/notion/disconnect"],
      ["GET", "/api/auth/notion"],
    ] as const) {
      const res = await rest(app, method, path, {
        token: staff,
        body: method === "POST" ? { token: TOKEN } : undefined,
      });
      expect(res.status, path).toBe(403);
    }
    const g = await gql(
      app,
      "mutation($t: String!) { connectNotion(token: $t) { connected } }",
      { t: TOKEN },
      staff,
    );
    expect(g.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    expect(await mongoose.connection.collection("notion_connection").countDocuments()).toBe(0);
  });

  it("should refuse a token Notion rejects with NOTION_TOKEN_INVALID and connect with a valid one", async () => {
    const bad = await rest(app, "POST", "/api/admin/notion/token", {
      token: admin,
      body: { token: "secret_wrong" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("NOTION_TOKEN_INVALID");
    const ok = await rest(app, "POST", "/api/admin/notion/token", { token: admin, body: { token: TOKEN } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ connected: true, workspace: { name: "Sekretariatet", id: fake.workspaceId } });
    const g = await gql(app, "{ notionStatus { connected via workspace { name } } }", {}, staff);
    expect(g.data.notionStatus).toEqual({
      connected: true,
      via: "token",
      workspace: { name: "Sekretariatet" },
    });
  });
});

describe("Notion discovery", () => {
  it("should list the workspace's databases with spec §5 scores, page counts and the spec §3 shape", async () => {
    const res = await rest(app, "GET", "/api/admin/notion/databases", { token: admin });
    expect(res.status).toBe(200);
    const byTitle = Object.fromEntries(
      res.body.map((d: { title: Array<{ plain_text: string }> }) => [d.title[0]?.plain_text, d]),
    );
    expect(byTitle["Vidensbank artikler"]).toMatchObject({
      id: ids.wiki,
      icon: { type: "emoji", emoji: "📚" },
      page_count: 4,
      score: 100,
      recommended: true,
      properties: { Name: { type: "title" }, Indhold: { type: "rich_text" } },
    });
    expect(byTitle.Opgaver).toMatchObject({ score: 40, recommended: false, page_count: 1 });
    // title property + "noter" in the title
    expect(byTitle["Mødenoter"]).toMatchObject({ score: 60, recommended: false, page_count: 1 });
    expect(byTitle["Rå tekst"]).toMatchObject({ score: 40, page_count: 0 });
    const g = await gql(
      app,
      "{ notionDatabases { title score recommended pageCount selected properties { name type } } }",
      {},
      admin,
    );
    expect(g.data.notionDatabases).toContainEqual(
      expect.objectContaining({
        title: "Vidensbank artikler",
        score: 100,
        recommended: true,
        selected: false,
      }),
    );
  });
});

describe("Notion sync", () => {
  it("should save the selection, sync the selected databases and show the pages as articles with their source", async () => {
    const saved = await rest(app, "POST", "/api/admin/notion/config", {
      token: admin,
      body: {
        selectedDatabases: [ids.wiki, ids.notes],
        lastUpdated: new Date().toISOString(),
        totalPages: 0,
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.selectedDatabases).toEqual([ids.wiki, ids.notes]);
    await syncDone();
    const run = (await rest(app, "GET", "/api/admin/notion/sync", { token: admin })).body;
    expect(run).toMatchObject({
      state: "succeeded",
      trigger: "config",
      pagesSeen: 5,
      pagesDone: 5,
      pagesFailed: 0,
    });
    expect((await rest(app, "GET", "/api/admin/notion/config", { token: admin })).body.totalPages).toBe(5);
    expect(await search("skattefarvandet")).toEqual(["Momsafregning"]);
    expect(await retrieved("Hvornår afregnes momsen kvartalsvis?")).toContain("Momsafregning");
    // a citation links back to the heading's block in Notion
    const passage = (await app.services.knowledge.retrievePassages("momsen afregnes kvartalsvis", 5)).find(
      (p) => p.title === "Momsafregning",
    );
    expect(passage?.headingPath).toEqual(["Frister"]);
    expect(passage?.url).toMatch(/^https:\/\/www\.notion\.so\/Momsafregning-[0-9a-f]{32}#[0-9a-f]{32}$/);
    const g = await gql(
      app,
      '{ knowledgeArticles(category: "Økonomi") { title tags category content source { kind url databaseTitle } } }',
      {},
      staff,
    );
    const vat = g.data.knowledgeArticles.find((a: { title: string }) => a.title === "Momsafregning");
    expect(vat).toMatchObject({
      tags: ["moms", "kvartal"],
      content: "# Frister\nMomsen afregnes kvartalsvis via skattefarvandet.\n\n- Første kvartal",
      source: { kind: "notion", databaseTitle: "Vidensbank artikler" },
    });
    expect(vat.source.url).toMatch(/^https:\/\/www\.notion\.so\/Momsafregning-/);
    // a page without a Kategori select gets its database's title as category
    const holiday = (await app.services.knowledge.listArticles()).find((a) => a.title === "Ferieplanlægning");
    expect(holiday?.category).toBe("Vidensbank artikler");
    const sample = (await app.services.knowledge.listArticles()).find((a) => a.source === "local");
    expect(sample).toBeDefined();
  });

  it("should reflect an edit, an archive, a deletion and a same-minute edit in the next incremental sync", async () => {
    fake.advance(3 * 60_000);
    fake.editPage(pages.holiday, {
      blocks: [{ type: "paragraph", text: "Sommerferien aftales nu i januar." }],
    });
    fake.archivePage(pages.keys);
    fake.trashPage(pages.gone);
    const before = fake.countRequests(/data_sources\/.*\/query/);
    const progress = app.services.events.subscribe("NOTION_SYNC_PROGRESS");
    const run = await manualSync();
    const first = await progress.next();
    expect(first.value).toMatchObject({ state: "running", trigger: "manual" });
    let last = first.value;
    while (last.state === "running") last = (await progress.next()).value;
    await progress.return?.();
    expect(last).toMatchObject({ id: run.id, state: "succeeded", articlesRemoved: 2 });
    expect(run).toMatchObject({ state: "succeeded", trigger: "manual", articlesRemoved: 2, pagesFailed: 0 });
    // incremental: one query page per selected database
    expect(fake.countRequests(/data_sources\/.*\/query/) - before).toBe(2);
    expect(await search("januar")).toEqual(["Ferieplanlægning"]);
    expect(await search("marts")).toEqual([]);
    expect(await search("Nøgleboksen")).toEqual([]);
    expect(await search("Telefaxnummeret")).toEqual([]);
    expect(await retrieved("Hvor står nøgleboksen?")).not.toContain("Nøglebokse");
    // edited again within the same minute as that sync: Notion's time does not move, the change must still arrive
    fake.editPage(pages.holiday, {
      blocks: [{ type: "paragraph", text: "Sommerferien aftales nu i februar." }],
    });
    await manualSync();
    expect(await search("februar")).toEqual(["Ferieplanlægning"]);
  });

  it("should make an unchanged re-sync cost one query page per database and write nothing", async () => {
    fake.advance(5 * 60_000);
    await manualSync();
    const before = fake.requests.length;
    const updatedBefore = (await app.services.knowledge.listArticles()).map((a) => a.updatedAt.getTime());
    const run = await manualSync();
    const made = fake.requests.slice(before).map((r) => r.path.replace(/[0-9a-f-]{36}/, ":id"));
    expect(made.filter((p) => p.endsWith("/query"))).toHaveLength(2);
    expect(made.filter((p) => p.includes("/blocks/"))).toHaveLength(0);
    expect(run.articlesRemoved).toBe(0);
    expect((await app.services.knowledge.listArticles()).map((a) => a.updatedAt.getTime())).toEqual(
      updatedBefore,
    );
  });

  it("should remove the pages of a database no longer selected", async () => {
    expect(await search("Generalforsamlingen")).toEqual(["Bestyrelsesmøde"]);
    const g = await gql(
      app,
      "mutation($ids: [ID!]!) { saveNotionConfig(selectedDatabases: $ids) { selectedDatabases } }",
      { ids: [ids.wiki] },
      admin,
    );
    expect(g.data.saveNotionConfig.selectedDatabases).toEqual([ids.wiki]);
    await syncDone();
    expect(await search("Generalforsamlingen")).toEqual([]);
    expect(await retrieved("Hvornår er generalforsamlingen?")).not.toContain("Bestyrelsesmøde");
    expect(
      (await gql(app, "{ notionSync { state articlesRemoved trigger } }", {}, admin)).data.notionSync,
    ).toEqual({
      state: "succeeded",
      articlesRemoved: 1,
      trigger: "config",
    });
  });

  it("should find a page deleted for good in the daily full listing", async () => {
    fake.deletePage(pages.vat);
    await app.services.notion.sync.run("cli", { full: true });
    expect(await search("skattefarvandet")).toEqual([]);
  });

  it("should log connect, config and sync finished in the activity log, and disconnect", async () => {
    const res = await gql(app, "mutation { disconnectNotion { connected } }", {}, admin);
    expect(res.data.disconnectNotion.connected).toBe(false);
    const actions = (await rest(app, "GET", "/api/admin/activity-logs", { token: admin })).body.map(
      (e: { action: string }) => e.action,
    );
    for (const a of ["notion_connect", "notion_config", "notion_sync", "notion_disconnect"])
      expect(actions).toContain(a);
  });

  it("should never let the token appear in logs, API answers, the activity log or the store in clear", async () => {
    const answers = [
      await rest(app, "GET", "/api/auth/notion/status", { token: admin }),
      await rest(app, "GET", "/api/admin/activity-logs", { token: admin }),
      await rest(app, "GET", "/api/admin/notion/sync", { token: admin }),
      await rest(app, "GET", "/api/admin/notion/config", { token: admin }),
    ];
    for (const a of answers) expect(JSON.stringify(a.body)).not.toContain(TOKEN);
    const dump: unknown[] = [];
    for (const c of await mongoose.connection.db!.listCollections().toArray()) {
      dump.push(await mongoose.connection.collection(c.name).find({}).toArray());
    }
    expect(JSON.stringify(dump)).not.toContain(TOKEN);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join("\n")).not.toContain(TOKEN);
  });
});
