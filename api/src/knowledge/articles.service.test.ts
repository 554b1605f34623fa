/**
 * Articles as people read and edit them, through the running server and the service: the admin's create, edit
 * and delete (refused for others, fields checked), lists and groups, and findArticleRef for other features.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin } from "../testing/client";
import type { UserDoc } from "../users/user.model";
import { ArticleModel } from "./article.model";
import { findArticleRef } from "./articles.service";

let app: TestApp;
let token: string;
let adminToken: string;
let admin: UserDoc;
let user: UserDoc;

beforeAll(async () => {
  app = await startTestApp();
  const created = await createVerifiedUser(app);
  token = created.token;
  user = await app.services.users.findByLogin(created.input.email);
  adminToken = await loginAdmin(app);
  admin = await app.services.users.findByLogin(app.admin.email);
});
afterAll(async () => {
  await app?.close();
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

describe("ArticlesService", () => {
  const input = { title: "Nøglebokse", content: "# Nøglebokse\n\nNøglen ligger i boksen.\n", category: "IT" };

  it("should keep an edited article's source and id, and refuse non-admins every edit", async () => {
    const knowledge = app.services.knowledge;
    const created = await knowledge.createArticle(admin, input);
    expect(created).toMatchObject({ source: "local", title: "Nøglebokse" });
    expect(created.sourceId).toMatch(/^manual:[0-9a-f]{24}$/);
    const edited = await knowledge.updateArticle(admin, created.id, {
      ...input,
      title: "Nøglebokse og skabe",
    });
    expect(edited).toMatchObject({
      id: created.id,
      sourceId: created.sourceId,
      title: "Nøglebokse og skabe",
    });
    for (const attempt of [
      () => knowledge.createArticle(user, input),
      () => knowledge.updateArticle(user, created.id, input),
      () => knowledge.deleteArticle(user, created.id),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    await knowledge.deleteArticle(admin, created.id);
    await expect(knowledge.getArticle(created.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(knowledge.deleteArticle(admin, created.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(knowledge.updateArticle(admin, "nope", input)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("should list by title within a category, and group by category again only after a change", async () => {
    const knowledge = app.services.knowledge;
    const roller = await knowledge.listArticles("Roller");
    expect(roller.length).toBeGreaterThan(1);
    expect(roller.every((a) => a.category === "Roller")).toBe(true);
    expect(roller.map((a) => a.title)).toEqual(
      roller.map((a) => a.title).sort((x, y) => x.localeCompare(y, "da")),
    );
    expect(await knowledge.peekArticle(roller[0].id)).toEqual(roller[0]);
    expect(await knowledge.peekArticle("0123456789abcdef01234567")).toBeNull();

    const first = await knowledge.articlesByCategory();
    expect(await knowledge.articlesByCategory()).toBe(first); // nothing changed: the same groups
    const created = await knowledge.createArticle(admin, { ...input, title: "Gruppetest" });
    const second = await knowledge.articlesByCategory();
    expect(second).not.toBe(first);
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.groups.get("IT")?.map((a) => a.id)).toContain(created.id);
    await knowledge.deleteArticle(admin, created.id);
  });
});

describe("findArticleRef", () => {
  it("should give an existing article's id and title, and null for unknown, malformed or operator-like ids", async () => {
    const doc = await ArticleModel.findOne({}, { title: 1 }).lean();
    expect(doc).not.toBeNull();
    const ref = await findArticleRef(String(doc?._id));
    expect(ref?.title).toBe(doc?.title);
    expect(ref?.id).toBeInstanceOf(mongoose.Types.ObjectId);
    for (const id of ["0123456789abcdef01234567", "123456789012", '{"$ne":null}', ""]) {
      expect(await findArticleRef(id), id).toBeNull();
    }
  });
});
