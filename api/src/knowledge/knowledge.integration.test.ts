/**
 * The knowledge base through the running server (startTestApp: the embedded store over the wire, the sample
 * content imported at start-up): GET /api/knowledge (spec §7), GraphQL categories and articles, view counts,
 * and edits and deletes seen by lists, search and retrieval without a restart. Search itself is tested in
 * knowledge.search.test.ts, recent searches in recent-searches.recorder.test.ts, article editing in
 * articles.service.test.ts, the chat's passages in knowledge.retrieval.test.ts.
 */
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import type { UserDoc } from "../users/user.model";
import { ArticleModel } from "./article.model";
import { CATEGORY_STYLES, DEFAULT_CATEGORY_STYLE } from "./categories";
import { loadContentDir } from "./content";
import { SAMPLE_CONTENT_DIR } from "./knowledge.service";
import { titlesFor as titlesForAs } from "./knowledge.test-helpers";

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

const titlesFor = (query: string, category?: string) => titlesForAs(app, token, query, category);

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

    // gzipped for a client that takes it (compressed once per version, in the background), the same JSON
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(
            `${app.url}/api/knowledge`,
            { headers: { authorization: `Bearer ${token}`, ...headers } },
            (r) => {
              const chunks: Buffer[] = [];
              r.on("data", (c: Buffer) => chunks.push(c));
              r.on("end", () => resolve({ headers: r.headers, body: Buffer.concat(chunks) }));
            },
          )
          .on("error", reject);
      });
    const plain = await raw({});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    let zipped = await raw({ "accept-encoding": "gzip, deflate, br" });
    for (let i = 0; i < 50 && !zipped.headers["content-encoding"]; i++) {
      await new Promise((r) => setTimeout(r, 20));
      zipped = await raw({ "accept-encoding": "gzip, deflate, br" });
    }
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.headers.etag).toBe(etag);
    expect((await raw({ "accept-encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined();

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
    const res = await gql(
      app,
      "{ knowledgeCategories { name count icon color description descriptionKey } }",
      {},
      token,
    );
    expect(res.errors).toBeUndefined();
    const cats = res.data.knowledgeCategories as Array<{
      name: string;
      count: number;
      icon: string;
      color: string;
      description: string;
      descriptionKey: string | null;
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
    // the default line by key, for the web app to show in the reader's language
    expect(it).toMatchObject({ description: "Øvrige artikler", descriptionKey: "categories.other" });
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

describe("edits and deletes seen by search and retrieval without a restart", () => {
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
});
