/**
 * Full-text search through the running server: Danish stemming, typo correction and category filters end to
 * end, paging, and bad input refused with BAD_USER_INPUT (never 500), over GraphQL and REST.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { type UserDoc, UserModel } from "../users/user.model";
import { MAX_SEARCH_INPUT } from "./knowledge.input";
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_OFFSET_MAX } from "./knowledge.search";
import { type SearchOptions, searchAs, titlesFor as titlesForAs } from "./knowledge.test-helpers";

let app: TestApp;
let token: string;
let userId: string;
let admin: UserDoc;

beforeAll(async () => {
  app = await startTestApp();
  ({
    token,
    user: { id: userId },
  } = await createVerifiedUser(app));
  await loginAdmin(app);
  admin = await app.services.users.findByLogin(app.admin.email);
});
afterAll(async () => {
  await app?.close();
});

const search = (query: unknown, opts: SearchOptions = {}) => searchAs(app, token, query, opts);
const titlesFor = (query: string, category?: string) => titlesForAs(app, token, query, category);

describe("knowledge search through the API", () => {
  it("should stem Danish: 'sagsbehandlingen' finds a text with only 'sagsbehandling', and the reverse", async () => {
    const create = async (title: string, word: string) =>
      app.services.knowledge.createArticle(admin, {
        title,
        content: `# ${title}\n\nDenne tekst handler om ${word} i stemmetesten.\n`,
        category: "Stemmetest",
      });
    const base = await create("Artikel om grundformen", "sagsbehandling");
    const definite = await create("Artikel om bestemt form", "sagsbehandlingen");

    expect(await titlesFor("sagsbehandlingen", "Stemmetest")).toEqual(
      expect.arrayContaining([base.title, definite.title]),
    );
    expect(await titlesFor("sagsbehandling", "Stemmetest")).toEqual(
      expect.arrayContaining([base.title, definite.title]),
    );
    expect(await titlesFor("sagsbehandlinger", "Stemmetest")).toEqual(
      expect.arrayContaining([base.title, definite.title]),
    );

    // over the sample content, with the matched word marked in the snippet
    const res = await search("sagsbehandlingen");
    const top = res.data.searchKnowledge.hits[0];
    expect(top.article.title).toBe("Frister i sagsbehandlingen");
    const marked = top.highlights.map((r: { start: number; end: number }) =>
      top.snippet.slice(r.start, r.end).toLowerCase(),
    );
    expect(marked).toContain("sagsbehandlingen");
    expect(top.titleHighlights.length).toBeGreaterThan(0);
  });

  it("should find an article despite a typo and say which word it used", async () => {
    const res = await search("generalforsmaling");
    expect(res.data.searchKnowledge.hits[0].article.title).toMatch(/Generalforsamling/i);
    expect(res.data.searchKnowledge.corrections).toEqual([
      { from: "generalforsmaling", to: "generalforsamling" },
    ]);
    expect((await titlesFor("sagsbehandlnig")).length).toBeGreaterThan(0);
  });

  it("should search within a category", async () => {
    const res = await search("frister", { category: "Økonomi" });
    const hits = res.data.searchKnowledge.hits as Array<{ article: { category: string } }>;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.article.category === "Økonomi")).toBe(true);
  });

  it("should page with limit and offset, clamping nonsense instead of failing", async () => {
    const knowledge = app.services.knowledge;
    const all = await knowledge.search(null, { query: "frist", limit: SEARCH_LIMIT_MAX });
    expect(all.total).toBeGreaterThan(3);
    expect((await knowledge.search(null, { query: "frist" })).hits).toHaveLength(
      Math.min(all.total, SEARCH_LIMIT_DEFAULT),
    );
    const second = await knowledge.search(null, { query: "frist", limit: 2, offset: 2 });
    expect(second.hits.map((h) => h.article.id)).toEqual(all.hits.slice(2, 4).map((h) => h.article.id));
    const odd = await knowledge.search(null, { query: "frist", limit: -5, offset: Number.NaN });
    expect(odd.hits.map((h) => h.article.id)).toEqual([all.hits[0].article.id]); // limit 1, offset 0
    const beyond = await knowledge.search(null, { query: "frist", offset: SEARCH_OFFSET_MAX * 10 });
    expect(beyond).toMatchObject({ hits: [], total: all.total });
  });

  it("should make no user document for a signed-in search: the role check and the recorder read the cached identity", async () => {
    const hydrate = vi.spyOn(UserModel, "hydrate");
    try {
      expect((await search("frist")).errors).toBeUndefined();
      expect((await rest(app, "GET", "/api/knowledge/search?q=frist", { token })).status).toBe(200);
      expect(hydrate).not.toHaveBeenCalled();
      // a resolver that reads the user still gets its document (made then, once)
      expect((await gql(app, "{ myPreferences { theme } }", {}, token)).errors).toBeUndefined();
      expect(hydrate).toHaveBeenCalledTimes(1);
    } finally {
      hydrate.mockRestore();
    }
    await app.services.knowledge.searchesRecorded();
    // and the searches are recorded as theirs
    expect((await app.services.knowledge.recentSearches(userId, 1))[0]?.query).toBe("frist");
  });
});

describe("bad search input", () => {
  it("should answer an empty or blank query with no hits", async () => {
    for (const q of ["", "   ", "og i at"]) {
      const res = await search(q);
      expect(res.status).toBe(200);
      expect(res.data.searchKnowledge).toMatchObject({ total: 0, hits: [] });
    }
  });

  it("should answer a 10,000-character query (cut to the searched length) and refuse a longer one with 400", async () => {
    const long = "sagsbehandling ".repeat(700).slice(0, MAX_SEARCH_INPUT);
    const res = await search(long);
    expect(res.status).toBe(200);
    expect(res.data.searchKnowledge.truncated).toBe(true);
    expect(res.data.searchKnowledge.total).toBeGreaterThan(0);

    const tooLong = await search(`${long}x`);
    expect(tooLong.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
    const restTooLong = await rest(
      app,
      "GET",
      `/api/knowledge/search?q=${"a".repeat(MAX_SEARCH_INPUT + 1)}`,
      { token },
    );
    expect(restTooLong.status).toBe(400);
  });

  it("should refuse an over-long category with BAD_USER_INPUT and find nothing in an unknown one", async () => {
    const long = await search("frist", { category: "x".repeat(500) });
    expect(long.errors?.[0]).toMatchObject({
      message: "Ugyldig kategori (en tekst på højst 200 tegn)",
      extensions: { code: "BAD_USER_INPUT" },
    });
    const unknown = await search("frist", { category: "Findes ikke" });
    expect(unknown.data.searchKnowledge).toMatchObject({ total: 0, hits: [] });
  });

  it("should refuse an operator object as the query with BAD_USER_INPUT, never 500", async () => {
    const res = await search({ $ne: null });
    expect(res.status).toBeLessThan(500);
    expect(res.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    // REST: q[$ne]=x is not a nested object (the plain query parser), an array is refused
    const nested = await rest(app, "GET", "/api/knowledge/search?q[$ne]=null", { token });
    expect(nested.status).toBe(200);
    expect(nested.body.total).toBe(0);
    const arr = await rest(app, "GET", "/api/knowledge/search?q=a&q=b", { token });
    expect(arr.status).toBe(400);
    expect(arr.body.code).toBe("BAD_USER_INPUT");
  });

  it("should treat regex and query-syntax characters as text", async () => {
    for (const q of [
      ".*",
      "(frist[",
      "$where",
      "\\",
      "^klage$",
      "a|b",
      '"; DROP TABLE',
      '{"$gt": ""}',
      "💥",
    ]) {
      const res = await search(q);
      expect(res.status, q).toBe(200);
      expect(res.errors, q).toBeUndefined();
    }
    const res = await search("klagefrist (.*)");
    expect(res.data.searchKnowledge.hits[0].article.title).toMatch(/klage/i);
    const restRes = await rest(app, "GET", `/api/knowledge/search?q=${encodeURIComponent("klage.*[")}`, {
      token,
    });
    expect(restRes.status).toBe(200);
    expect(restRes.body.hits.length).toBeGreaterThan(0);
    expect(restRes.body.hits[0].article.title).toMatch(/klage/i);
    expect(restRes.body.hits[0].article).not.toHaveProperty("content");
    expect(restRes.body.hits[0].snippet.length).toBeGreaterThan(0);
  });
});
