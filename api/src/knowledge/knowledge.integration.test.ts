/**
 * The knowledge base through the running server (startTestApp: the embedded store over the wire, the sample
 * content imported at start-up): GET /api/knowledge (spec §7), GraphQL categories / articles / search,
 * Danish stemming and typos end to end, edits and deletes seen by search and retrieval without a restart,
 * recent searches, view counts and bad input.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "../activity/activity.service";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import type { UserDoc } from "../users/user.model";
import { ArticleModel } from "./article.model";
import { CATEGORY_STYLES, DEFAULT_CATEGORY_STYLE } from "./categories";
import { loadContentDir } from "./content";
import { MAX_PENDING_SEARCHES, RECENT_SEARCHES_KEPT, SAMPLE_CONTENT_DIR } from "./knowledge.service";

const UI_FIELDS = [
  "id",
  "title",
  "content",
  "category",
  "subcategory",
  "tags",
  "createdAt",
  "updatedAt",
  "lastUpdated",
];

const SEARCH = `query Search($query: String!, $category: String, $limit: Int, $offset: Int) {
  searchKnowledge(query: $query, category: $category, limit: $limit, offset: $offset) {
    total query truncated corrections { from to }
    hits { score snippet highlights { start end } titleHighlights { start end } article { id title category } }
  }
}`;

let app: TestApp;
let token: string;
let adminToken: string;
let admin: UserDoc;

beforeAll(async () => {
  app = await startTestApp();
  token = (await createVerifiedUser(app)).token;
  adminToken = await loginAdmin(app);
  admin = await app.services.users.findByLogin(app.admin.email);
});
afterAll(async () => {
  await app?.close();
});

async function search(
  query: unknown,
  opts: { category?: string; limit?: number; offset?: number; as?: string } = {},
) {
  const res = await gql(
    app,
    SEARCH,
    { query, category: opts.category, limit: opts.limit, offset: opts.offset },
    opts.as ?? token,
  );
  return res;
}

async function titlesFor(query: string, category?: string): Promise<string[]> {
  const res = await search(query, { category });
  expect(res.errors).toBeUndefined();
  return res.data.searchKnowledge.hits.map((h: { article: { title: string } }) => h.article.title);
}

describe("GET /api/knowledge", () => {
  it("should refuse a request without sign-in with 401 and a Danish message", async () => {
    const res = await rest(app, "GET", "/api/knowledge");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Du skal være logget ind", code: "UNAUTHENTICATED" });
    const searchRes = await rest(app, "GET", "/api/knowledge/search?q=frist");
    expect(searchRes.status).toBe(401);
  });

  it("should answer an object of category name → articles with the fields the UI reads (spec §7)", async () => {
    const files = await loadContentDir(SAMPLE_CONTENT_DIR);
    const res = await rest(app, "GET", "/api/knowledge", { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = res.body as Record<string, Array<Record<string, unknown>>>;
    expect(Array.isArray(body)).toBe(false);

    // known categories first, in their order
    expect(Object.keys(body).slice(0, 4)).toEqual(Object.keys(CATEGORY_STYLES));
    const all = Object.values(body).flat();
    expect(all).toHaveLength(files.length);
    for (const [category, articles] of Object.entries(body)) {
      expect(articles.length).toBe(files.filter((f) => f.category === category).length);
      for (const a of articles) {
        for (const field of UI_FIELDS) expect(a, `${a.title} lacks ${field}`).toHaveProperty(field);
        expect(a.category).toBe(category);
        expect(typeof a.id).toBe("string");
        expect(Array.isArray(a.tags)).toBe(true);
        expect(Number.isNaN(Date.parse(String(a.createdAt)))).toBe(false);
        expect(a.lastUpdated).toBe(a.updatedAt);
        // never internals
        expect(a).not.toHaveProperty("contentHash");
        expect(a).not.toHaveProperty("sourceId");
        expect(a).not.toHaveProperty("_id");
      }
      const titles = articles.map((a) => String(a.title));
      expect(titles).toEqual([...titles].sort((x, y) => x.localeCompare(y, "da")));
    }
    // the same listing is not sent twice to a client that has it
    const etag = res.headers.get("etag");
    expect(etag).toBeTruthy();
    // (node:http: fetch adds "cache-control: no-cache" to a conditional request)
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(
          `${app.url}/api/knowledge`,
          { headers: { authorization: `Bearer ${token}`, "if-none-match": String(etag) } },
          (r) => {
            r.resume();
            resolve(r.statusCode);
          },
        )
        .on("error", reject);
    });
    expect(status).toBe(304);

    const frister = all.find((a) => a.title === "Frister i sagsbehandlingen");
    const file = files.find((f) => f.title === "Frister i sagsbehandlingen");
    expect(frister).toMatchObject({
      category: "Sagsbehandling",
      subcategory: file?.subcategory,
      tags: file?.tags,
    });
    expect(frister?.content).toBe(file?.content);
  });
});

describe("knowledge GraphQL reads", () => {
  it("should refuse every knowledge read without sign-in (UNAUTHENTICATED)", async () => {
    for (const q of [
      "{ knowledgeCategories { name } }",
      "{ knowledgeArticles { id } }",
      '{ searchKnowledge(query: "frist") { total } }',
    ]) {
      const res = await gql(app, q);
      expect(res.errors?.[0].extensions?.code, q).toBe("UNAUTHENTICATED");
      expect(res.data ?? null).toBeNull();
    }
  });

  it("should list the categories with counts and style, an unknown category with the default style", async () => {
    const res = await gql(app, "{ knowledgeCategories { name count icon color description } }", {}, token);
    expect(res.errors).toBeUndefined();
    const cats = res.data.knowledgeCategories as Array<{
      name: string;
      count: number;
      icon: string;
      color: string;
      description: string;
    }>;
    expect(cats.slice(0, 4).map((c) => c.name)).toEqual([
      "Økonomi",
      "Procedurer",
      "Roller",
      "Sagsbehandling",
    ]);
    const okonomi = cats.find((c) => c.name === "Økonomi");
    expect(okonomi).toMatchObject(CATEGORY_STYLES.Økonomi);
    const it = cats.find((c) => c.name === "IT");
    expect(it).toMatchObject({ count: 1, ...DEFAULT_CATEGORY_STYLE });
    const total = cats.reduce((n, c) => n + c.count, 0);
    expect(total).toBe(await ArticleModel.countDocuments({}));
  });

  it("should list articles by category and open one article by id (counting a view of its category)", async () => {
    const list = await gql(
      app,
      "query($c: String) { knowledgeArticles(category: $c) { id title category lastUpdated } }",
      { c: "Roller" },
      token,
    );
    const roller = list.data.knowledgeArticles as Array<{ id: string; category: string }>;
    expect(roller.length).toBeGreaterThanOrEqual(5);
    expect(roller.every((a) => a.category === "Roller")).toBe(true);

    const before =
      (await app.services.knowledge.topCategories(10)).find((c) => c.category === "Roller")?.count ?? 0;
    const one = await gql(
      app,
      "query($id: ID!) { knowledgeArticle(id: $id) { id title content tags subcategory } }",
      { id: roller[0].id },
      token,
    );
    expect(one.errors).toBeUndefined();
    expect(one.data.knowledgeArticle.id).toBe(roller[0].id);
    await gql(app, "query($id: ID!) { knowledgeArticle(id: $id) { id } }", { id: roller[1].id }, token);
    const top = await app.services.knowledge.topCategories(10);
    expect(top.find((c) => c.category === "Roller")?.count).toBe(before + 2);
    expect(top[0].count).toBeGreaterThanOrEqual(top[top.length - 1].count);
  });

  it("should answer NOT_FOUND for an unknown, malformed or operator-like article id", async () => {
    for (const id of ["0123456789abcdef01234567", "123456789012", '{"$ne":null}', ""]) {
      const res = await gql(app, "query($id: ID!) { knowledgeArticle(id: $id) { id } }", { id }, token);
      expect(res.errors?.[0]).toMatchObject({
        message: "Artiklen blev ikke fundet",
        extensions: { code: "NOT_FOUND" },
      });
    }
  });
});

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

  it("should find an edited article by its new words at once and no longer by its old ones", async () => {
    const article = await app.services.knowledge.createArticle(admin, {
      title: "Kantineordning",
      content: "# Kantineordning\n\nFrokosten bestilles hos kantinelederen senest klokken ni.\n",
      category: "Procedurer",
      tags: ["frokost"],
    });
    expect(await titlesFor("kantinelederen")).toContain("Kantineordning");
    expect(
      (await app.services.knowledge.retrievePassages("hvem bestiller frokosten hos kantinelederen", 3))[0]
        ?.articleId,
    ).toBe(article.id);

    // through GraphQL as the admin
    const upd = await gql(
      app,
      "mutation($id: ID!, $input: KnowledgeArticleInput!) { updateKnowledgeArticle(id: $id, input: $input) { id title updatedAt } }",
      {
        id: article.id,
        input: {
          title: "Kantineordning",
          content: "# Kantineordning\n\nMadpakkeordningen administreres nu af receptionisten hver morgen.\n",
          category: "Procedurer",
          tags: ["madpakke"],
        },
      },
      adminToken,
    );
    expect(upd.errors).toBeUndefined();
    expect(await titlesFor("madpakkeordningen")).toContain("Kantineordning");
    expect(await titlesFor("receptionisten")).toContain("Kantineordning");
    expect(await titlesFor("kantinelederen")).not.toContain("Kantineordning");
    const passages = await app.services.knowledge.retrievePassages("madpakkeordningen receptionisten", 3);
    expect(passages[0]).toMatchObject({ articleId: article.id, title: "Kantineordning" });
    expect(passages[0].text).toContain("receptionisten");
    const old = await app.services.knowledge.retrievePassages("kantinelederen", 5);
    expect(old.map((p) => p.articleId)).not.toContain(article.id);
  });

  it("should remove a deleted article from lists, search and retrieval", async () => {
    const article = await app.services.knowledge.createArticle(admin, {
      title: "Papirklipsernes opbevaring",
      content: "# Papirklipsernes opbevaring\n\nPapirklipsene ligger i skuffen under printeren.\n",
      category: "Procedurer",
    });
    expect(await titlesFor("papirklipsene")).toContain(article.title);
    const forbidden = await gql(
      app,
      "mutation($id: ID!) { deleteKnowledgeArticle(id: $id) }",
      { id: article.id },
      token,
    );
    expect(forbidden.errors?.[0].extensions?.code).toBe("FORBIDDEN");

    const del = await gql(
      app,
      "mutation($id: ID!) { deleteKnowledgeArticle(id: $id) }",
      { id: article.id },
      adminToken,
    );
    expect(del.data?.deleteKnowledgeArticle).toBe(true);
    expect(await titlesFor("papirklipsene")).not.toContain(article.title);
    expect(
      (await app.services.knowledge.retrievePassages("papirklipsene skuffen printeren", 5)).map(
        (p) => p.articleId,
      ),
    ).not.toContain(article.id);
    const listed = await rest(app, "GET", "/api/knowledge", { token });
    expect(
      Object.values(listed.body)
        .flat()
        .map((a) => (a as { id: string }).id),
    ).not.toContain(article.id);
    const one = await gql(
      app,
      "query($id: ID!) { knowledgeArticle(id: $id) { id } }",
      { id: article.id },
      token,
    );
    expect(one.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });

  it("should give the chat passages with a 0..1 score, the article's date and a link", async () => {
    const passages = await app.services.knowledge.retrievePassages("Hvad er klagefristen?", 4);
    expect(passages.length).toBeGreaterThan(0);
    expect(passages[0].title).toMatch(/klage/i);
    for (const p of passages) {
      expect(p.score).toBeGreaterThanOrEqual(0);
      expect(p.score).toBeLessThanOrEqual(1);
      expect(p.updatedAt).toBeInstanceOf(Date);
      expect(p.url).toBe(`/knowledge?article=${p.articleId}`);
      expect(Array.isArray(p.headingPath)).toBe(true);
    }
    expect(passages[0].score).toBeGreaterThan(0.5);
    // a question the knowledge base does not cover scores low or finds nothing
    const off = await app.services.knowledge.retrievePassages("opskrift på lagkage med jordbær", 4);
    expect(off.every((p) => p.score < 0.25)).toBe(true);
    expect(await app.services.knowledge.retrievePassages("", 4)).toEqual([]);
  });
});

describe("editing articles (admin)", () => {
  const CREATE =
    "mutation($input: KnowledgeArticleInput!) { createKnowledgeArticle(input: $input) { id title tags } }";

  it("should refuse invalid fields naming each one, and refuse non-admins", async () => {
    const bad = await gql(
      app,
      CREATE,
      { input: { title: "  ", content: "", category: "Roller", tags: ["x".repeat(51)] } },
      adminToken,
    );
    expect(bad.errors?.[0]).toMatchObject({
      message: "Titel er påkrævet",
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(bad.errors?.[0].extensions?.fields.map((f: { field: string }) => f.field)).toEqual([
      "title",
      "content",
      "tags",
    ]);

    const input = {
      title: "Ny artikel",
      content: "# Ny artikel\n\nTekst.\n",
      category: "Roller",
      tags: [" a ", "a", "b"],
    };
    const user = await gql(app, CREATE, { input }, token);
    expect(user.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    const ok = await gql(app, CREATE, { input }, adminToken);
    expect(ok.data.createKnowledgeArticle).toMatchObject({ title: "Ny artikel", tags: ["a", "b"] });
    await app.services.knowledge.deleteArticle(admin, ok.data.createKnowledgeArticle.id);
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
    const long = "sagsbehandling ".repeat(700).slice(0, 10_000);
    const res = await search(long);
    expect(res.status).toBe(200);
    expect(res.data.searchKnowledge.truncated).toBe(true);
    expect(res.data.searchKnowledge.total).toBeGreaterThan(0);

    const tooLong = await search(`${long}x`);
    expect(tooLong.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
    const restTooLong = await rest(app, "GET", `/api/knowledge/search?q=${"a".repeat(10_001)}`, { token });
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

describe("recent searches", () => {
  it("should keep the user's last 20 searches, newest first, log them as `search`, and show them to no one else", async () => {
    const me = await createVerifiedUser(app);
    const other = await createVerifiedUser(app);
    for (let i = 1; i <= RECENT_SEARCHES_KEPT + 5; i++) await search(`frist ${i}`, { as: me.token });
    await search("frist 3", { as: me.token }); // again: moves to the top, no duplicate
    await search("budget", { as: me.token, offset: 20 }); // paging is not a new search

    const mine = await gql(app, "{ myRecentSearches { id query timestamp } }", {}, me.token);
    const queries = mine.data.myRecentSearches.map((r: { query: string }) => r.query);
    expect(queries).toHaveLength(RECENT_SEARCHES_KEPT);
    expect(queries[0]).toBe("frist 3");
    expect(queries[1]).toBe(`frist ${RECENT_SEARCHES_KEPT + 5}`);
    expect(queries.filter((q: string) => q === "frist 3")).toHaveLength(1);
    expect(queries).not.toContain("frist 1");
    expect(queries).not.toContain("budget");

    const theirs = await gql(app, "{ myRecentSearches { query } }", {}, other.token);
    expect(theirs.data.myRecentSearches).toEqual([]);

    await app.services.knowledge.searchesRecorded(); // written after the answer
    const logged = await listActivity({ action: "search", search: me.input.email });
    expect(logged.length).toBeGreaterThanOrEqual(RECENT_SEARCHES_KEPT);
    expect(logged[0]).toMatchObject({ action: "search", userEmail: me.input.email.toLowerCase() });
    expect(logged[0].metadata).toMatchObject({ query: "frist 3" });

    const cleared = await gql(app, "mutation { clearMyRecentSearches }", {}, me.token);
    expect(cleared.data.clearMyRecentSearches).toBe(RECENT_SEARCHES_KEPT);
  });
  it("should record a burst of searches by several users, in order, each one logged with its own time", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    const userA = await app.services.users.findByLogin(a.input.email);
    const userB = await app.services.users.findByLogin(b.input.email);
    const knowledge = app.services.knowledge;
    // no waiting between them: they are written together, after the answers
    const texts = Array.from({ length: RECENT_SEARCHES_KEPT + 4 }, (_, i) => `udlæg ${i + 1}`);
    for (const q of texts) {
      await knowledge.search(userA, { query: q });
      await knowledge.search(userB, { query: `b ${q}` });
    }
    await new Promise((r) => setTimeout(r, 5)); // a later millisecond (equal times are ordered by id)
    await knowledge.search(userA, { query: "udlæg 2" }); // again: to the top, once
    await knowledge.search(userA, { query: "udlæg 2" });

    const mine = (await knowledge.recentSearches(String(userA._id))).map((r) => r.query);
    expect(mine).toHaveLength(RECENT_SEARCHES_KEPT);
    expect(mine[0]).toBe("udlæg 2");
    expect(mine.slice(1, 4)).toEqual([
      `udlæg ${texts.length}`,
      `udlæg ${texts.length - 1}`,
      `udlæg ${texts.length - 2}`,
    ]);
    expect(mine).not.toContain("udlæg 1");
    const theirs = (await knowledge.recentSearches(String(userB._id))).map((r) => r.query);
    expect(theirs[0]).toBe(`b udlæg ${texts.length}`);
    expect(theirs).toHaveLength(RECENT_SEARCHES_KEPT);

    await knowledge.searchesRecorded();
    const logged = await listActivity({ action: "search", search: a.input.email, limit: 100 });
    expect(logged).toHaveLength(texts.length + 2); // every search is logged, repeats too
    expect(logged.map((e) => e.metadata.query)).toEqual(["udlæg 2", "udlæg 2", ...[...texts].reverse()]);
    const times = logged.map((e) => e.timestamp.getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(logged[0].metadata).toMatchObject({ category: null, results: expect.any(Number) });
  });

  it("should record at most MAX_PENDING_SEARCHES unwritten searches of one user, and answer them all", async () => {
    const me = await createVerifiedUser(app);
    const user = await app.services.users.findByLogin(me.input.email);
    const extra = 15;
    for (let i = 0; i < MAX_PENDING_SEARCHES + extra; i++) {
      const res = await app.services.knowledge.search(user, { query: `hamret ${i}` });
      expect(res.query).toBe(`hamret ${i}`);
    }
    await app.services.knowledge.searchesRecorded();
    const logged = await listActivity({ action: "search", search: me.input.email, limit: 1000 });
    expect(logged).toHaveLength(MAX_PENDING_SEARCHES);
    // once written, the user is recorded again
    await app.services.knowledge.search(user, { query: "igen" });
    await app.services.knowledge.searchesRecorded();
    const again = await listActivity({ action: "search", search: me.input.email, limit: 1000 });
    expect(again).toHaveLength(MAX_PENDING_SEARCHES + 1);
    expect(again[0].metadata.query).toBe("igen");
  });

  it("should clear searches that were still waiting to be written", async () => {
    const me = await createVerifiedUser(app);
    await search("klagefrist", { as: me.token });
    await search("budget", { as: me.token });
    const cleared = await gql(app, "mutation { clearMyRecentSearches }", {}, me.token);
    expect(cleared.data.clearMyRecentSearches).toBe(2);
    await app.services.knowledge.searchesRecorded();
    const mine = await gql(app, "{ myRecentSearches { query } }", {}, me.token);
    expect(mine.data.myRecentSearches).toEqual([]);
  });
});
