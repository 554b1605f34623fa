import { APIResponseError, Client } from "@notionhq/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeNotion, startFakeNotion } from "./fake-notion";

let fake: FakeNotion;
let client: Client;
beforeEach(async () => {
  fake = await startFakeNotion({ oauth: { clientId: "cid", clientSecret: "csecret" } });
  client = new Client({ auth: "secret_test", baseUrl: fake.url, retry: false });
});
afterEach(() => fake.close());

describe("fake Notion server", () => {
  it("should list data sources through search with the documented shape", async () => {
    const id = fake.addDataSource("Vidensbank artikler", { icon: "📚" });
    const res = await client.search({ filter: { property: "object", value: "data_source" } });
    expect(res.results).toHaveLength(1);
    expect(res.results[0]).toMatchObject({
      object: "data_source",
      id,
      icon: { type: "emoji", emoji: "📚" },
      title: [{ plain_text: "Vidensbank artikler" }],
    });
    const ds = await client.dataSources.retrieve({ data_source_id: id });
    expect(Object.keys((ds as { properties: object }).properties)).toEqual([
      "Name",
      "Indhold",
      "Kategori",
      "Tags",
    ]);
  });

  it("should paginate a data source query and filter by a minute-rounded last_edited_time", async () => {
    const ds = fake.addDataSource("Noter");
    for (let i = 0; i < 5; i++) fake.addPage(ds, { title: `Side ${i}` });
    const first = await client.dataSources.query({ data_source_id: ds, page_size: 2 });
    expect(first.results).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const rest = await client.dataSources.query({
      data_source_id: ds,
      page_size: 100,
      start_cursor: first.next_cursor ?? undefined,
    });
    expect(rest.results).toHaveLength(3);
    expect(rest.has_more).toBe(false);
    const edited = (first.results[0] as { last_edited_time: string }).last_edited_time;
    expect(edited).toMatch(/:00\.000Z$/);
    fake.advance(5 * 60_000);
    const later = fake.addPage(ds, { title: "Ny" });
    const since = new Date(fake.now() - 60_000).toISOString();
    const recent = await client.dataSources.query({
      data_source_id: ds,
      filter: { timestamp: "last_edited_time", last_edited_time: { on_or_after: since } },
    });
    expect(recent.results.map((p) => p.id)).toEqual([later]);
  });

  it("should page block children and serve nested children", async () => {
    const ds = fake.addDataSource("Noter");
    const page = fake.addPage(ds, {
      blocks: [
        ...Array.from({ length: 150 }, (_, i) => ({ type: "paragraph", text: `Afsnit ${i}` })),
        {
          type: "bulleted_list_item",
          text: "Top",
          children: [{ type: "bulleted_list_item", text: "Under" }],
        },
      ],
    });
    const first = await client.blocks.children.list({ block_id: page });
    expect(first.results).toHaveLength(100);
    const second = await client.blocks.children.list({
      block_id: page,
      start_cursor: first.next_cursor ?? "",
    });
    const top = second.results.at(-1) as { id: string; has_children: boolean };
    expect(top.has_children).toBe(true);
    const nested = await client.blocks.children.list({ block_id: top.id });
    expect(nested.results[0]).toMatchObject({ type: "bulleted_list_item" });
  });

  it("should answer 429 with Retry-After above the rate, injected 500s, and 401 for a revoked token", async () => {
    fake.rateLimit = true;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      try {
        await client.users.me({});
        statuses.push(200);
      } catch (err) {
        statuses.push((err as APIResponseError).status);
        expect(APIResponseError.isAPIResponseError(err)).toBe(true);
      }
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses).toContain(429);
    fake.rateLimit = false;
    fake.failNext(1, 500);
    await expect(client.users.me({})).rejects.toMatchObject({ status: 500 });
    await expect(client.users.me({})).resolves.toMatchObject({ object: "user", type: "bot" });
    fake.revoke("secret_test");
    await expect(client.users.me({})).rejects.toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("should exchange an OAuth code issued by its authorize endpoint", async () => {
    const res = await fetch(
      `${fake.url}/v1/oauth/authorize?client_id=cid&redirect_uri=${encodeURIComponent("http://app/cb")}&state=s1`,
      { redirect: "manual" },
    );
    const back = new URL(res.headers.get("location") ?? "");
    expect(back.searchParams.get("state")).toBe("s1");
    const oauth = new Client({ baseUrl: fake.url, retry: false });
    const token = await oauth.oauth.token({
      grant_type: "authorization_code",
      code: back.searchParams.get("code") ?? "",
      redirect_uri: "http://app/cb",
      client_id: "cid",
      client_secret: "csecret",
    });
    expect(token).toMatchObject({ workspace_name: "Sekretariatet", token_type: "bearer" });
    const user = await new Client({ auth: token.access_token, baseUrl: fake.url }).users.me({});
    expect(user.type).toBe("bot");
  });

  it("should hide archived and trashed pages from queries and show them in a trash search; deleted pages 404", async () => {
    const ds = fake.addDataSource("Noter");
    const [a, b, c] = [
      fake.addPage(ds, { title: "A" }),
      fake.addPage(ds, { title: "B" }),
      fake.addPage(ds, { title: "C" }),
    ];
    fake.archivePage(a);
    fake.trashPage(b);
    const live = await client.dataSources.query({ data_source_id: ds });
    expect(live.results.map((p) => p.id)).toEqual([c]);
    const trash = await client.search({ filter: { property: "object", value: "page", in_trash: true } });
    expect(trash.results.map((p) => p.id).sort()).toEqual([a, b].sort());
    fake.deletePage(c);
    await expect(client.pages.retrieve({ page_id: c })).rejects.toMatchObject({ status: 404 });
  });
});
