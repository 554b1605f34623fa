/**
 * What the Notion sync must survive, through the real @notionhq/client against the fake server: rate limiting
 * (429 + Retry-After) and 5xx answers with backoff and no lost page, a long page with nested lists, odd content
 * (no title property, empty pages, very long text, unknown block types), a page that keeps failing, a revoked
 * token and an outage; plus the OAuth connect flow.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { gql, loginAdmin, rest } from "../testing/client";
import { type FakeBlockInput, type FakeNotion, startFakeNotion } from "../testing/fake-notion";

const TOKEN = "secret_resilience_token_abcdef";
let app: TestApp;
let fake: FakeNotion;
let admin: string;

beforeAll(async () => {
  fake = await startFakeNotion({
    tokens: [TOKEN],
    oauth: { clientId: "cid", clientSecret: "csecret", workspaceName: "OAuth-rummet" },
  });
  app = await startTestApp({
    config: { notionApiBaseUrl: fake.url, notionClientId: "cid", notionClientSecret: "csecret" },
    notion: {
      requestsPerSecond: 12,
      clientOptions: { baseDelayMs: 30, maxRetries: 3 },
      now: () => fake.now(),
    },
  });
  admin = await loginAdmin(app);
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

const notionArticles = async () =>
  (await app.services.knowledge.listArticles()).filter((a) => a.source === "notion");

async function select(...ids: string[]) {
  const res = await rest(app, "POST", "/api/admin/notion/config", {
    token: admin,
    body: { selectedDatabases: ids },
  });
  expect(res.status).toBe(200);
  await app.services.notion.sync.idle();
  return (await rest(app, "GET", "/api/admin/notion/sync", { token: admin })).body;
}

describe("Notion OAuth", () => {
  it("should send the admin to Notion with a signed state and connect on the callback", async () => {
    const start = await fetch(`${app.url}/api/auth/notion`, {
      headers: { authorization: `Bearer ${admin}` },
      redirect: "manual",
    });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get("location") ?? "");
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${fake.url}/v1/oauth/authorize`);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${app.url}/api/auth/notion/callback`);
    const approved = await fetch(authorize, { redirect: "manual" });
    const callback = new URL(approved.headers.get("location") ?? "");
    // a forged state is refused and connects nothing
    const forged = new URL(callback);
    forged.searchParams.set("state", "eyJ1IjoieCJ9.forged");
    const bad = await fetch(forged, { headers: { authorization: `Bearer ${admin}` }, redirect: "manual" });
    expect(bad.headers.get("location")).toBe("/?notion=error&reason=state");
    const done = await fetch(callback, { headers: { authorization: `Bearer ${admin}` }, redirect: "manual" });
    expect(done.headers.get("location")).toBe("/?notion=connected");
    const status = await rest(app, "GET", "/api/auth/notion/status", { token: admin });
    expect(status.body).toEqual({
      connected: true,
      workspace: { name: "OAuth-rummet", id: fake.workspaceId },
    });
    // not configured: straight back with a reason
    app.config.notionClientId = undefined;
    const off = await fetch(`${app.url}/api/auth/notion`, {
      headers: { authorization: `Bearer ${admin}` },
      redirect: "manual",
    });
    expect(off.headers.get("location")).toBe("/?notion=error&reason=not_configured");
    app.config.notionClientId = "cid";
  });
});

describe("Notion sync under pressure", () => {
  it("should honour 429 Retry-After and back off on 5xx without losing a page", async () => {
    await rest(app, "POST", "/api/admin/notion/token", { token: admin, body: { token: TOKEN } });
    const ds = fake.addDataSource("Guides");
    for (let i = 0; i < 12; i++)
      fake.addPage(ds, { title: `Guide ${i}`, blocks: [{ type: "paragraph", text: `Trin nummer ${i}` }] });
    fake.rateLimit = true; // 3 req/s; the app's queue sends 12 req/s here
    fake.failNext(3, 500, /\/blocks\//);
    fake.failNext(1, 503, /\/query$/);
    const run = await select(ds);
    fake.rateLimit = false;
    expect(fake.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(fake.requests.filter((r) => r.status >= 500).length).toBe(4);
    expect(run).toMatchObject({ state: "succeeded", pagesDone: 12, pagesFailed: 0 });
    expect((await notionArticles()).length).toBe(12);
  }, 30_000);

  it("should render a page of 250 blocks with nested lists completely", async () => {
    const ds = fake.addDataSource("Procedurer");
    const blocks: FakeBlockInput[] = [];
    for (let i = 1; i <= 240; i++) blocks.push({ type: "paragraph", text: `Afsnit ${i}` });
    blocks.push(
      { type: "heading_2", text: "Tjekliste" },
      {
        type: "bulleted_list_item",
        text: "Niveau 1",
        children: [
          {
            type: "bulleted_list_item",
            text: "Niveau 2",
            children: [{ type: "bulleted_list_item", text: "Niveau 3" }],
          },
        ],
      },
      { type: "numbered_list_item", text: "Først" },
      {
        type: "numbered_list_item",
        text: "Dernæst",
        children: [{ type: "to_do", text: "Afkrydset", checked: true }],
      },
      ...Array.from({ length: 6 }, (_, i) => ({ type: "bulleted_list_item", text: `Punkt ${i}` })),
    );
    expect(blocks).toHaveLength(250);
    fake.addPage(ds, { title: "Lang procedure", blocks });
    await select(ds);
    const article = (await notionArticles()).find((a) => a.title === "Lang procedure");
    const lines = article?.content.split("\n") ?? [];
    for (let i = 1; i <= 240; i++) expect(lines).toContain(`Afsnit ${i}`);
    expect(article?.content).toContain(
      "## Tjekliste\n- Niveau 1\n  - Niveau 2\n    - Niveau 3\n1. Først\n2. Dernæst\n  - [x] Afkrydset\n- Punkt 0",
    );
    expect(lines).toContain("- Punkt 5");
  });

  it("should turn odd content into articles: no title property, empty page, very long text, unknown blocks", async () => {
    const raw = fake.addDataSource("Rå tekst", { properties: { Tekst: "rich_text" } });
    fake.addPage(raw, { blocks: [{ type: "paragraph", text: "Uden titelfelt" }] });
    const odd = fake.addDataSource("Diverse");
    fake.addPage(odd, { title: "Tom side" });
    fake.addPage(odd, { title: "Meget lang", blocks: [{ type: "paragraph", text: "ord ".repeat(70_000) }] });
    fake.addPage(odd, {
      title: "Ukendt blok",
      blocks: [
        { type: "ai_summary_v9", text: "Opsummering bevares" },
        { type: "paragraph", text: "Slut" },
      ],
    });
    const run = await select(raw, odd);
    expect(run).toMatchObject({ state: "succeeded", pagesFailed: 0, pagesDone: 4 });
    const byTitle = Object.fromEntries((await notionArticles()).map((a) => [a.title, a]));
    expect(byTitle["Uden titel"]?.content).toBe("Uden titelfelt");
    expect(byTitle["Uden titel"]?.category).toBe("Rå tekst");
    expect(byTitle["Tom side"]?.content).toBe("(Siden er tom i Notion)");
    expect(byTitle["Meget lang"]?.content.length).toBe(200_000);
    expect(byTitle["Meget lang"]?.content.endsWith("…")).toBe(true);
    expect(byTitle["Ukendt blok"]?.content).toBe("Opsummering bevares\nSlut");
  });

  it("should record a page that keeps failing, keep going, and fetch it on the next run", async () => {
    const ds = fake.addDataSource("Skrøbelig");
    const good = fake.addPage(ds, { title: "Stabil side", blocks: [{ type: "paragraph", text: "ok" }] });
    const flaky = fake.addPage(ds, {
      title: "Ustabil side",
      blocks: [{ type: "paragraph", text: "kommer senere" }],
    });
    fake.failNext(20, 500, new RegExp(`/blocks/${flaky}/children`));
    const run = await select(ds);
    expect(run.state).toBe("succeeded");
    expect(run.pagesFailed).toBe(1);
    expect(run.failures[0]).toMatchObject({
      pageId: flaky,
      title: "Ustabil side",
      message: expect.stringContaining("Notion svarede ikke"),
    });
    expect(run.failures[0].url).toContain(flaky.replace(/-/g, ""));
    expect((await notionArticles()).map((a) => a.sourceId)).toContain(good);
    // not edited since, yet not lost: the next run retries it
    fake.clearFailures();
    fake.advance(5 * 60_000);
    const next = await (await rest(app, "POST", "/api/admin/notion/sync", { token: admin })).body;
    expect(next.state).toBe("running");
    await app.services.notion.sync.idle();
    expect((await notionArticles()).map((a) => a.sourceId)).toContain(flaky);
  });

  it("should fail a run clearly on an outage or a revoked token and keep every article", async () => {
    const before = (await notionArticles()).length;
    fake.setOutage(true);
    const down = await app.services.notion.sync.run("manual");
    fake.setOutage(false);
    expect(down.state).toBe("failed");
    expect(down.error).toBe("Nogle databaser kunne ikke hentes fra Notion");
    expect(down).toMatchObject({ errorKey: "someDatabasesFailed", errorParams: {} });
    expect(down.failures[0].message).toMatch(/^Notion svarede ikke: fejl hos Notion \(503/);
    expect(down.failures[0]).toMatchObject({
      messageKey: "notionError",
      messageParams: { detail: "503, service_unavailable" },
    });
    // the stored run (what the admin screen reads later) keeps the reasons
    const stored = await gql(
      app,
      "{ notionSync { errorKey failures { messageKey messageParams } } }",
      {},
      admin,
    );
    expect(stored.data?.notionSync).toMatchObject({
      errorKey: "someDatabasesFailed",
      failures: [{ messageKey: "notionError", messageParams: { detail: "503, service_unavailable" } }],
    });
    expect((await notionArticles()).length).toBe(before);
    fake.revoke(TOKEN);
    const revoked = await app.services.notion.sync.run("manual");
    expect(revoked).toMatchObject({
      state: "failed",
      error: "Notion afviste nøglen (ugyldig eller tilbagekaldt)",
      errorKey: "unauthorized",
    });
    expect((await notionArticles()).length).toBe(before);
    const dbs = await rest(app, "GET", "/api/admin/notion/databases", { token: admin });
    expect(dbs.status).toBe(400);
    expect(dbs.body.code).toBe("NOTION_TOKEN_INVALID");
  });
});
