/**
 * Bookmarks through the running server (GraphQL and REST): add (idempotent), list, remove, each user only their
 * own, logged as `bookmark`, following their article's title and removed with it (the knowledge hooks wired in
 * services.ts), bad input answered with 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "../activity/activity.service";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, rest } from "../testing/client";
import type { UserDoc } from "../users/user.model";
import { BookmarkModel } from "./bookmark.model";
import { removeBookmarksOfArticle, renameBookmarkedArticle } from "./bookmarks.service";

const LIST = "{ myBookmarks { id articleId articleTitle bookmarkedAt } }";
const ADD =
  "mutation($id: ID!) { addBookmark(articleId: $id) { created bookmark { id articleId articleTitle bookmarkedAt } } }";
const REMOVE = "mutation($id: ID!) { removeBookmark(articleId: $id) }";

let app: TestApp;
let admin: UserDoc;
let articles: Array<{ id: string; title: string }>;
let anne: { token: string; input: { email: string } };
let bo: { token: string; input: { email: string } };

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.services.users.findByLogin(app.admin.email);
  articles = (await app.services.knowledge.listArticles())
    .slice(0, 4)
    .map((a) => ({ id: a.id, title: a.title }));
  anne = await createVerifiedUser(app);
  bo = await createVerifiedUser(app);
});
afterAll(async () => {
  await app?.close();
});

describe("bookmarks over GraphQL", () => {
  it("should add, list newest first and remove the signed-in user's bookmarks; adding twice is idempotent", async () => {
    const [a, b] = articles;
    const first = await gql(app, ADD, { id: a.id }, anne.token);
    expect(first.errors).toBeUndefined();
    expect(first.data.addBookmark).toMatchObject({
      created: true,
      bookmark: { articleId: a.id, articleTitle: a.title },
    });
    const again = await gql(app, ADD, { id: a.id }, anne.token);
    expect(again.data.addBookmark).toMatchObject({
      created: false,
      bookmark: { id: first.data.addBookmark.bookmark.id },
    });
    await gql(app, ADD, { id: b.id }, anne.token);

    const list = await gql(app, LIST, {}, anne.token);
    expect(list.data.myBookmarks.map((x: { articleId: string }) => x.articleId)).toEqual([b.id, a.id]);
    const withArticle = await gql(
      app,
      "{ myBookmarks { articleId article { id title category } } }",
      {},
      anne.token,
    );
    expect(withArticle.data.myBookmarks[0].article).toMatchObject({ id: b.id, title: b.title });
    expect(await BookmarkModel.countDocuments({ articleId: a.id })).toBe(1);

    const bookmarked = await gql(
      app,
      "query($id: ID!) { isBookmarked(articleId: $id) }",
      { id: a.id },
      anne.token,
    );
    expect(bookmarked.data.isBookmarked).toBe(true);

    expect((await gql(app, REMOVE, { id: a.id }, anne.token)).data.removeBookmark).toBe(true);
    const afterRemove = await gql(app, LIST, {}, anne.token);
    expect(afterRemove.data.myBookmarks.map((x: { articleId: string }) => x.articleId)).toEqual([b.id]);
    const twice = await gql(app, REMOVE, { id: a.id }, anne.token);
    expect(twice.errors?.[0]).toMatchObject({
      message: "Artiklen er ikke gemt som bogmærke",
      extensions: { code: "NOT_FOUND" },
    });

    const log = await listActivity({ action: "bookmark", search: anne.input.email });
    expect(log.map((e) => e.metadata.added)).toEqual([false, true, true]); // newest first; the repeat add logs nothing
    expect(log[2].description).toContain(a.title);
  });

  it("should keep one user's bookmarks invisible and untouchable to another", async () => {
    const c = articles[2];
    await gql(app, ADD, { id: c.id }, anne.token);
    const boList = await gql(app, LIST, {}, bo.token);
    expect(boList.data.myBookmarks).toEqual([]);
    const boCheck = await gql(
      app,
      "query($id: ID!) { isBookmarked(articleId: $id) }",
      { id: c.id },
      bo.token,
    );
    expect(boCheck.data.isBookmarked).toBe(false);
    // Bo removing "the same" bookmark only looks at Bo's own: not found, Anne's stays
    const boRemove = await gql(app, REMOVE, { id: c.id }, bo.token);
    expect(boRemove.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const anneList = await gql(app, LIST, {}, anne.token);
    expect(anneList.data.myBookmarks.map((x: { articleId: string }) => x.articleId)).toContain(c.id);
  });

  it("should refuse bookmarks without sign-in and for unknown or malformed article ids", async () => {
    expect((await gql(app, LIST)).errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
    expect((await gql(app, ADD, { id: articles[0].id })).errors?.[0].extensions?.code).toBe(
      "UNAUTHENTICATED",
    );
    for (const id of ["0123456789abcdef01234567", "not-an-id", "123456789012", '{"$ne":null}']) {
      const res = await gql(app, ADD, { id }, anne.token);
      expect(res.errors?.[0], id).toMatchObject({
        message: "Artiklen blev ikke fundet",
        extensions: { code: "NOT_FOUND" },
      });
    }
  });
});

describe("bookmarks over REST", () => {
  it("should add (201, then 200 when already there), list and delete the user's own bookmarks", async () => {
    const d = articles[3];
    const created = await rest(app, "POST", "/api/user/bookmarks", {
      token: bo.token,
      body: { articleId: d.id },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ articleId: d.id, articleTitle: d.title, created: true });
    const again = await rest(app, "POST", "/api/user/bookmarks", {
      token: bo.token,
      body: { articleId: d.id },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: created.body.id, created: false });

    const list = await rest(app, "GET", "/api/user/bookmarks", { token: bo.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: created.body.id,
        articleId: d.id,
        articleTitle: d.title,
        bookmarkedAt: created.body.bookmarkedAt,
      },
    ]);
    // Anne does not see Bo's, and cannot delete it
    const anneList = await rest(app, "GET", "/api/user/bookmarks", { token: anne.token });
    expect(anneList.body.map((x: { articleId: string }) => x.articleId)).not.toContain(d.id);
    const anneDelete = await rest(app, "DELETE", `/api/user/bookmarks/${d.id}`, { token: anne.token });
    expect(anneDelete.status).toBe(404);
    expect(anneDelete.body).toEqual({ message: "Artiklen er ikke gemt som bogmærke", code: "NOT_FOUND" });
    expect((await rest(app, "GET", "/api/user/bookmarks", { token: bo.token })).body).toHaveLength(1);

    const deleted = await rest(app, "DELETE", `/api/user/bookmarks/${d.id}`, { token: bo.token });
    expect(deleted).toMatchObject({ status: 200, body: { ok: true } });
    expect((await rest(app, "GET", "/api/user/bookmarks", { token: bo.token })).body).toEqual([]);
  });

  it("should answer bad input with 4xx and a Danish message, never 500", async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ articleId: { $ne: null } }, 400, "BAD_USER_INPUT"],
      [{ articleId: ["x"] }, 400, "BAD_USER_INPUT"],
      [{}, 400, "BAD_USER_INPUT"],
      [{ articleId: "  " }, 400, "BAD_USER_INPUT"],
      [{ articleId: "0123456789abcdef01234567" }, 404, "NOT_FOUND"],
      [[], 400, "BAD_USER_INPUT"],
      ["not json", 400, "BAD_USER_INPUT"],
    ];
    for (const [body, status, code] of cases) {
      const res = await rest(app, "POST", "/api/user/bookmarks", { token: bo.token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(typeof res.body.message).toBe("string");
    }
    const weird = await rest(app, "DELETE", "/api/user/bookmarks/%24ne", { token: bo.token });
    expect(weird.status).toBe(404);
    expect((await rest(app, "GET", "/api/user/bookmarks")).status).toBe(401);
    expect(
      (await rest(app, "POST", "/api/user/bookmarks", { body: { articleId: articles[0].id } })).status,
    ).toBe(401);
  });
});

describe("bookmarks and article changes", () => {
  it("should follow a renamed article's title and disappear with a deleted article", async () => {
    const article = await app.services.knowledge.createArticle(admin, {
      title: "Midlertidig artikel",
      content: "# Midlertidig artikel\n\nTekst.\n",
      category: "Procedurer",
    });
    await gql(app, ADD, { id: article.id }, anne.token);
    await gql(app, ADD, { id: article.id }, bo.token);

    await app.services.knowledge.updateArticle(admin, article.id, {
      title: "Omdøbt artikel",
      content: article.content,
      category: article.category,
    });
    const renamed = await gql(app, LIST, {}, bo.token);
    expect(
      renamed.data.myBookmarks.find((b: { articleId: string }) => b.articleId === article.id).articleTitle,
    ).toBe("Omdøbt artikel");

    await app.services.knowledge.deleteArticle(admin, article.id);
    expect(await BookmarkModel.countDocuments({ articleId: article.id })).toBe(0);
    for (const user of [anne, bo]) {
      const list = await gql(app, LIST, {}, user.token);
      expect(list.data.myBookmarks.map((b: { articleId: string }) => b.articleId)).not.toContain(article.id);
    }
  });

  it("should change only the bookmarks of the article named in a hook, and ignore a malformed id", async () => {
    const [kept, changed] = articles.slice(2, 4);
    for (const a of [kept, changed]) await gql(app, ADD, { id: a.id }, anne.token);
    await renameBookmarkedArticle(changed.id, "Nyt navn via hook");
    await renameBookmarkedArticle("ikke-et-id", "x");
    const titles = async () =>
      Object.fromEntries(
        (await gql(app, LIST, {}, anne.token)).data.myBookmarks.map(
          (b: { articleId: string; articleTitle: string }) => [b.articleId, b.articleTitle],
        ),
      );
    expect(await titles()).toMatchObject({ [kept.id]: kept.title, [changed.id]: "Nyt navn via hook" });
    await removeBookmarksOfArticle(changed.id);
    await removeBookmarksOfArticle("ikke-et-id");
    const after = await titles();
    expect(Object.keys(after)).toContain(kept.id);
    expect(Object.keys(after)).not.toContain(changed.id);
  });
});
