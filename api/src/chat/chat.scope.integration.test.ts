/**
 * The scope of a question over the whole server (retrieval-only, the sample content): a scoped answer cites
 * only its scope, says "not covered" when the scope lacks the answer though another article has it, category
 * and bookmark scopes, the scope kept on the session, validation, and another user's session refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, rest } from "../testing/client";
import { MAX_SCOPE_ARTICLES } from "./chat.scope-view";
import { gqlOk, MESSAGE_FIELDS, Q, sampleArticleId } from "./chat.test-helpers";

const SCOPE_FIELDS = "scope { kind category articles { id title } label }";
const S = {
  setScope: `mutation SetChatScope($sessionId: ID!, $scope: ChatScopeInput!) {
    setChatScope(sessionId: $sessionId, scope: $scope) { sessionId ${SCOPE_FIELDS} } }`,
  send: `mutation SendScoped($sessionId: ID!, $content: String!, $scope: ChatScopeInput) {
    sendMessage(sessionId: $sessionId, content: $content, scope: $scope) {
      assistantMessage { id ${SCOPE_FIELDS} } } }`,
  messages: `query ScopedMessages($sessionId: ID!) { messages(sessionId: $sessionId) { ${MESSAGE_FIELDS} ${SCOPE_FIELDS} } }`,
  sessions: `query ScopedSessions { sessions { sessionId ${SCOPE_FIELDS} } }`,
};

const NOT_COVERED = "Vidensbanken dækker desværre ikke dit spørgsmål";

let app: TestApp;
let alice: { token: string; user: { id: string } };
let bob: { token: string; user: { id: string } };
let udlaeg: string;
let attestation: string;
let journal: string;
let frister: string;

beforeAll(async () => {
  app = await startTestApp();
  alice = await createVerifiedUser(app);
  bob = await createVerifiedUser(app);
  udlaeg = await sampleArticleId(app, "oekonomi/udlaeg-og-refusion.md");
  attestation = await sampleArticleId(app, "oekonomi/attestation-og-godkendelse-af-betalinger.md");
  journal = await sampleArticleId(app, "sagsbehandling/journalisering.md");
  frister = await sampleArticleId(app, "sagsbehandling/frister-i-sagsbehandlingen.md");
});
afterAll(async () => {
  await app?.services.chat.whenIdle();
  await app?.close();
});

async function newSession(token = alice.token): Promise<string> {
  return (await gqlOk(app, Q.create, {}, token)).createSession.sessionId;
}

interface Answer {
  id: string;
  content: string;
  knowledgeGap: boolean;
  citations: Array<{ articleId: string }>;
  scope: { kind: string; label: string } | null;
}

/** Ask (optionally with a scope) and wait until the answer is stored. */
async function ask(
  sessionId: string,
  content: string,
  scope?: unknown,
  token = alice.token,
): Promise<Answer> {
  const sent = await gqlOk(app, S.send, { sessionId, content, scope }, token);
  await app.services.chat.whenIdle();
  const { messages } = await gqlOk(app, S.messages, { sessionId }, token);
  return messages.find((m: Answer) => m.id === sent.sendMessage.assistantMessage.id);
}

const cited = (a: Answer) => [...new Set(a.citations.map((c) => c.articleId))];

describe("the scope of a question", () => {
  it("should cite only the scope's articles, where unscoped the answer cites others too", async () => {
    const question = "Hvem attesterer udlæg, og hvem godkender betalinger?";
    const open = await ask(await newSession(), question);
    // unscoped, the answer cites articles outside the scope below (the role articles say who attests)
    expect(cited(open).some((id) => id !== udlaeg && id !== frister)).toBe(true);
    expect(open.scope).toBeNull();

    const sessionId = await newSession();
    const scoped = await ask(sessionId, question, { kind: "ARTICLES", articleIds: [udlaeg, frister] });
    expect(scoped.citations.length).toBeGreaterThan(0);
    expect(cited(scoped).every((id) => id === udlaeg || id === frister)).toBe(true);
    expect(scoped.scope).toMatchObject({
      kind: "ARTICLES",
      label: "2 artikler: Udlæg og refusion af egne udgifter, Frister i sagsbehandlingen",
    });
    expect(scoped.content).toContain("Søgt i: 2 artikler:");
  });

  it("should answer an edited question and a regenerated answer in the session's scope too", async () => {
    const sessionId = await newSession();
    const first = await ask(sessionId, "Hvem attesterer udlæg?", { kind: "ARTICLES", articleIds: [journal] });
    expect(first.knowledgeGap).toBe(true);
    const { messages } = await gqlOk(app, S.messages, { sessionId }, alice.token);
    const question = messages.find((m: { role: string }) => m.role === "user");
    // the edit asks what the scope's one article does cover; the answer must stay inside it
    await gqlOk(
      app,
      Q.edit,
      { messageId: question.id, content: "Hvordan journaliserer jeg dokumenter?" },
      alice.token,
    );
    await app.services.chat.whenIdle();
    const edited: Answer[] = (await gqlOk(app, S.messages, { sessionId }, alice.token)).messages;
    const editedAnswer = edited[edited.length - 1];
    expect(editedAnswer.scope).toMatchObject({ kind: "ARTICLES" });
    expect(editedAnswer.citations.length).toBeGreaterThan(0);
    expect(cited(editedAnswer)).toEqual([journal]);

    await gqlOk(app, Q.regenerate, { messageId: editedAnswer.id }, alice.token);
    await app.services.chat.whenIdle();
    const again: Answer[] = (await gqlOk(app, S.messages, { sessionId }, alice.token)).messages;
    const regenerated = again[again.length - 1];
    expect(regenerated.id).not.toBe(editedAnswer.id);
    expect(cited(regenerated)).toEqual([journal]);
    expect(regenerated.content).toContain("Søgt i: Artikel: Journalisering af dokumenter");
  });

  it("should say 'not covered' when the scope lacks the answer though another article has it", async () => {
    const question = "Hvem attesterer udlæg?";
    const open = await ask(await newSession(), question);
    expect(open.knowledgeGap).toBe(false);
    expect(cited(open)).toContain(udlaeg);

    const scoped = await ask(await newSession(), question, { kind: "ARTICLES", articleIds: [journal] });
    expect(scoped.content).toContain(NOT_COVERED);
    expect(scoped.content).toContain("Søgt i: Artikel: Journalisering af dokumenter");
    expect(scoped.knowledgeGap).toBe(true);
    expect(scoped.citations).toEqual([]);
  });

  it("should answer from one category only", async () => {
    const sessionId = await newSession();
    const set = await gqlOk(
      app,
      S.setScope,
      { sessionId, scope: { kind: "CATEGORY", category: "Økonomi" } },
      alice.token,
    );
    expect(set.setChatScope.scope).toEqual({
      kind: "CATEGORY",
      category: "Økonomi",
      articles: [],
      label: "Kategori: Økonomi",
    });
    const covered = await ask(sessionId, "Hvem attesterer udlæg?");
    const economy = new Set((await app.services.knowledge.listArticles("Økonomi")).map((a) => a.id));
    expect(covered.citations.length).toBeGreaterThan(0);
    expect(cited(covered).every((id) => economy.has(id))).toBe(true);
    // a data breach is in Procedurer, outside the category (and answered without a scope)
    expect(cited(await ask(await newSession(), "Hvad gør jeg ved et databrud?")).length).toBeGreaterThan(0);
    // (a new session: a follow-up's retrieval query carries the question before it)
    const outside = await ask(await newSession(), "Hvad gør jeg ved et databrud?", {
      kind: "CATEGORY",
      category: "Økonomi",
    });
    expect(outside.content).toContain(NOT_COVERED);
    expect(outside.content).toContain("Søgt i: Kategori: Økonomi");
  });

  it("should answer from the user's bookmarks as they are when asked", async () => {
    await rest(app, "POST", "/api/user/bookmarks", { token: alice.token, body: { articleId: frister } });
    const sessionId = await newSession();
    await gqlOk(app, S.setScope, { sessionId, scope: { kind: "BOOKMARKS" } }, alice.token);
    const notYet = await ask(sessionId, "Hvem attesterer udlæg?");
    expect(notYet.content).toContain(NOT_COVERED);
    expect(notYet.scope).toMatchObject({ kind: "BOOKMARKS", label: "Mine bogmærker" });
    await rest(app, "POST", "/api/user/bookmarks", { token: alice.token, body: { articleId: udlaeg } });
    const now = await ask(sessionId, "Hvem attesterer udlæg?");
    expect(cited(now)).toEqual([udlaeg]);
    // another user's bookmarks are theirs: bob has none, so nothing is found
    const bobs = await newSession(bob.token);
    const none = await ask(bobs, "Hvem attesterer udlæg?", { kind: "BOOKMARKS" }, bob.token);
    expect(none.content).toContain(NOT_COVERED);
  });

  it("should keep the scope on the session until changed, and each answer the scope it used", async () => {
    const sessionId = await newSession();
    await ask(sessionId, "Hvem attesterer udlæg?", { kind: "ARTICLES", articleIds: [journal] });
    const listed = (await gqlOk(app, S.sessions, {}, alice.token)).sessions.find(
      (s: { sessionId: string }) => s.sessionId === sessionId,
    );
    expect(listed.scope).toMatchObject({ kind: "ARTICLES", articles: [{ id: journal }] });
    // the next question, without a scope, is still asked in it
    const second = await ask(sessionId, "Hvem attesterer udlæg?");
    expect(second.content).toContain(NOT_COVERED);
    expect(second.scope?.kind).toBe("ARTICLES");
    // back to all articles
    const cleared = await gqlOk(app, S.setScope, { sessionId, scope: { kind: "ALL" } }, alice.token);
    expect(cleared.setChatScope.scope).toEqual({
      kind: "ALL",
      category: null,
      articles: [],
      label: "Alle artikler",
    });
    const third = await ask(sessionId, "Hvem attesterer udlæg?");
    expect(cited(third)).toContain(udlaeg);
    expect(third.scope).toBeNull();
    expect(third.content).not.toContain("Søgt i");
    // the earlier answers keep theirs
    const { messages } = await gqlOk(app, S.messages, { sessionId }, alice.token);
    expect(messages.filter((m: Answer) => m.scope?.kind === "ARTICLES")).toHaveLength(2);
  });

  it("should refuse unknown articles, categories and kinds, and more than the bound of articles", async () => {
    const sessionId = await newSession();
    const cases: Array<[unknown, string]> = [
      [{ kind: "ARTICLES", articleIds: ["000000000000000000000000"] }, "SCOPE_ARTICLE_NOT_FOUND"],
      [{ kind: "ARTICLES", articleIds: [udlaeg, "ikke-en-artikel"] }, "SCOPE_ARTICLE_NOT_FOUND"],
      [{ kind: "ARTICLES", articleIds: [] }, "BAD_USER_INPUT"],
      [{ kind: "ARTICLES" }, "BAD_USER_INPUT"],
      [{ kind: "ARTICLES", articleIds: Array(MAX_SCOPE_ARTICLES + 1).fill(udlaeg) }, "BAD_USER_INPUT"],
      [{ kind: "CATEGORY", category: "Findes ikke" }, "BAD_USER_INPUT"],
      [{ kind: "CATEGORY" }, "BAD_USER_INPUT"],
    ];
    for (const [scope, code] of cases) {
      const res = await gql(app, S.setScope, { sessionId, scope }, alice.token);
      expect(res.errors?.[0].extensions?.code, JSON.stringify(scope)).toBe(code);
    }
    // a refused scope with a question stores nothing
    const res = await gql(app, S.send, { sessionId, content: "Hej", scope: cases[0][0] }, alice.token);
    expect(res.errors?.[0].extensions?.code).toBe("SCOPE_ARTICLE_NOT_FOUND");
    expect((await gqlOk(app, S.messages, { sessionId }, alice.token)).messages).toEqual([]);
    const bad = await rest(app, "PUT", `/api/chat/sessions/${sessionId}/scope`, {
      token: alice.token,
      body: { kind: "SOMETHING" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("BAD_USER_INPUT");
  });

  it("should refuse another user's session exactly like an unknown one, over GraphQL and REST", async () => {
    const sessionId = await newSession(alice.token);
    const scope = { kind: "CATEGORY", category: "Økonomi" };
    const foreign = await gql(app, S.setScope, { sessionId, scope }, bob.token);
    const unknown = await gql(
      app,
      S.setScope,
      { sessionId: "00000000-0000-0000-0000-000000000000", scope },
      bob.token,
    );
    expect(foreign.errors?.[0]).toMatchObject({
      message: "Samtalen findes ikke",
      extensions: { code: "NOT_FOUND" },
    });
    expect(foreign.errors?.[0].message).toBe(unknown.errors?.[0].message);
    // even with a scope that is itself invalid: the session is checked first
    const invalid = await gql(
      app,
      S.setScope,
      { sessionId, scope: { kind: "CATEGORY", category: "x" } },
      bob.token,
    );
    expect(invalid.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const put = await rest(app, "PUT", `/api/chat/sessions/${sessionId}/scope`, {
      token: bob.token,
      body: scope,
    });
    expect(put.status).toBe(404);
    expect(put.body.code).toBe("NOT_FOUND");
    const mine = (await gqlOk(app, S.sessions, {}, alice.token)).sessions.find(
      (s: { sessionId: string }) => s.sessionId === sessionId,
    );
    expect(mine.scope.kind).toBe("ALL");
  });

  it("should set the scope over REST and send a scoped question there", async () => {
    const sessionId = await newSession();
    const put = await rest(app, "PUT", `/api/chat/sessions/${sessionId}/scope`, {
      token: alice.token,
      body: { kind: "ARTICLES", articleIds: [udlaeg] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      session_id: sessionId,
      scope: { kind: "ARTICLES", label: "Artikel: Udlæg og refusion af egne udgifter" },
    });
    const posted = await rest(app, "POST", "/api/chat/messages", {
      token: alice.token,
      body: {
        sessionId,
        content: "Hvad er svarfristen i sagsbehandlingen?",
        scope: { kind: "ARTICLES", articleIds: [journal] },
      },
    });
    expect(posted.status).toBe(201);
    await app.services.chat.whenIdle();
    const list = await rest(app, "GET", `/api/chat/messages/${sessionId}`, { token: alice.token });
    expect(list.body.at(-1)).toMatchObject({
      role: "assistant",
      scope: { kind: "ARTICLES", articles: [{ id: journal }] },
    });
    expect(list.body.at(-1).content).toContain(NOT_COVERED);
  });
});

describe("retrieval with a filter (knowledge side)", () => {
  it("should rank inside the filter: an article far down the open ranking comes first within its scope", async () => {
    const question = "Hvem attesterer udlæg?";
    // the best passage overall is not the attestation article's; with k = 1 a post-filter would find nothing
    const open = await app.services.knowledge.retrievePassages(question, 1);
    expect(open.map((p) => p.articleId)).not.toContain(attestation);
    const inside = await app.services.knowledge.retrievePassages(question, 1, { articleIds: [attestation] });
    expect(inside.map((p) => p.articleId)).toEqual([attestation]);
    expect(await app.services.knowledge.retrievePassages(question, 3, { articleIds: [] })).toEqual([]);
    const economy = await app.services.knowledge.retrievePassages(question, 6, { category: "Økonomi" });
    const ids = new Set((await app.services.knowledge.listArticles("Økonomi")).map((a) => a.id));
    expect(economy.length).toBeGreaterThan(0);
    expect(economy.every((p) => ids.has(p.articleId))).toBe(true);
  });
});
