/**
 * One Notion sync at a time across processes: two app processes (A and B) on one store (in its own process).
 * A sync runs on A (saving the configuration starts it); a sync asked on B meanwhile does not run a second one
 * (the lease in notion_leases): B answers with A's run, or a run refused as "Another sync is running". Every
 * page is read from Notion once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rest } from "../testing/client";
import { type FakeNotion, startFakeNotion } from "../testing/fake-notion";
import { type Child, startAppPair, startStoreProcess } from "../testing/processes";

const TOKEN = "secret_vidensbank_cluster_0123456789";
const PASSWORD = "cluster-admin-password";
let store: Child;
let a: Child & { url: string };
let b: Child & { url: string };
let fake: FakeNotion;

beforeAll(async () => {
  fake = await startFakeNotion({ tokens: [TOKEN] });
  store = await startStoreProcess();
  [a, b] = await startAppPair(store.first, PASSWORD, { NOTION_API_BASE_URL: fake.url });
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await store?.stop();
  await fake?.close();
}, 30_000);

describe("Notion sync across processes", () => {
  it("runs one sync at a time: a sync asked on B while A syncs does not start a second one", async () => {
    const login = await rest(a, "POST", "/api/auth/login", {
      body: { email: "admin@minksekretariatet.dk", password: PASSWORD },
    });
    const token = login.body.token as string;
    const wiki = fake.addDataSource("Vidensbank artikler");
    const pages = Array.from({ length: 8 }, (_, i) =>
      fake.addPage(wiki, {
        title: `Klyngeside ${i}`,
        blocks: [{ type: "paragraph", text: `Indhold nummer ${i} om klyngen.` }],
      }),
    );
    expect((await rest(a, "POST", "/api/admin/notion/token", { token, body: { token: TOKEN } })).status).toBe(
      200,
    );
    // saving the selection starts a sync on A (slow: the fake Notion allows 3 requests/s)
    const saved = await rest(a, "POST", "/api/admin/notion/config", {
      token,
      body: { selectedDatabases: [wiki], lastUpdated: new Date().toISOString(), totalPages: 0 },
    });
    expect(saved.status).toBe(200);
    const onA = await rest(a, "GET", "/api/admin/notion/sync", { token });
    expect(onA.body).toMatchObject({ state: "running" });

    const onB = await rest(b, "POST", "/api/admin/notion/sync", { token });
    expect(onB.status).toBe(202);
    const started = onB.body.run ?? onB.body;
    if (started.id === onA.body.id) expect(started.state).toBe("running");
    else expect(started).toMatchObject({ state: "failed", error: "Another sync is running" });

    const last = async () => (await rest(b, "GET", "/api/admin/notion/sync", { token })).body;
    const t0 = Date.now();
    while ((await last()).state === "running" && Date.now() - t0 < 60_000)
      await new Promise((r) => setTimeout(r, 200));
    const finished = await rest(a, "GET", "/api/admin/notion/sync", { token });
    expect(finished.body).toMatchObject({
      id: onA.body.id,
      state: "succeeded",
      pagesDone: 8,
      pagesFailed: 0,
    });
    for (const id of pages) {
      expect(fake.countRequests(new RegExp(`^GET /v1/blocks/${id}/children`))).toBe(1);
    }
    // once it is over, B may sync (the lease was released): it runs there
    const again = await rest(b, "POST", "/api/admin/notion/sync", { token });
    expect((again.body.run ?? again.body).state).toBe("running");
  }, 120_000);
});
