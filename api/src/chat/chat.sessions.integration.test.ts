/**
 * The chat over the whole server without a language model (retrieval-only, the embedded default): sessions,
 * search, export, REST compatibility, ownership across GraphQL/REST/graphql-ws, bad input and crash recovery.
 */
import type { Client } from "graphql-ws";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { CHAT_MESSAGE_MAX_LENGTH } from "./answer";
import { ChatMessageModel, ChatSessionModel, KnowledgeGapModel } from "./chat.model";
import { PLACE_CACHE_MIN_PLACES } from "./chat.place-cache";
import { EventCollector, ended, eventually, gqlOk, Q, sampleArticleId, wsClient } from "./chat.test-helpers";

let app: TestApp;
let alice: { token: string; user: { id: string; email: string } };
let bob: { token: string; user: { id: string } };
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ mail: "outbox" });
  alice = await createVerifiedUser(app);
  bob = await createVerifiedUser(app);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await app?.services.chat.whenIdle();
  await app?.close();
});

async function newSession(token: string, title?: string): Promise<string> {
  const data = await gqlOk(app, Q.create, title === undefined ? {} : { title }, token);
  return data.createSession.sessionId;
}

/** Send and wait until the answer is stored. */
async function ask(token: string, sessionId: string, content: string) {
  const sent = await gqlOk(app, Q.send, { sessionId, content }, token);
  await app.services.chat.whenIdle();
  const list = await gqlOk(app, Q.messages, { sessionId }, token);
  const answer = list.messages.find((m: { id: string }) => m.id === sent.sendMessage.assistantMessage.id);
  return { sent: sent.sendMessage, answer, messages: list.messages };
}

describe("chat sessions (retrieval-only)", () => {
  it("should create 'Ny chat' sessions and list them newest first", async () => {
    const first = await newSession(alice.token);
    await new Promise((r) => setTimeout(r, 5));
    const second = await newSession(alice.token, "Min egen titel");
    const { sessions } = await gqlOk(app, Q.sessions, {}, alice.token);
    const ids = sessions.map((s: { sessionId: string }) => s.sessionId);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(sessions.find((s: { sessionId: string }) => s.sessionId === first).title).toBe("Ny chat");
    expect(sessions.find((s: { sessionId: string }) => s.sessionId === second).title).toBe("Min egen titel");
    const bobs = await gqlOk(app, Q.sessions, {}, bob.token);
    expect(bobs.sessions.map((s: { sessionId: string }) => s.sessionId)).not.toContain(first);
  });

  it("should say over GraphQL only whether a session is untitled: no title yet, or 'Ny chat' however it was given", async () => {
    const untitled = `mutation($title: String) { createSession(title: $title) { sessionId title untitled } }`;
    const created = (await gqlOk(app, untitled, {}, alice.token)).createSession;
    expect(created).toMatchObject({ title: "Ny chat", untitled: true });
    const named = (await gqlOk(app, untitled, { title: "Ferie" }, alice.token)).createSession;
    expect(named).toMatchObject({ title: "Ferie", untitled: false });
    const rename = `mutation($id: ID!, $title: String!) { renameSession(sessionId: $id, title: $title) { title untitled } }`;
    const renamed = await gqlOk(app, rename, { id: named.sessionId, title: "Ny chat" }, alice.token);
    expect(renamed.renameSession).toEqual({ title: "Ny chat", untitled: true });
    const { sessions } = await gqlOk(app, "{ sessions { sessionId untitled } }", {}, alice.token);
    expect(sessions.find((s: { sessionId: string }) => s.sessionId === created.sessionId).untitled).toBe(
      true,
    );
    // the first question names it
    await ask(alice.token, created.sessionId, "Hvem attesterer udlæg?");
    const after = await gqlOk(app, "{ sessions { sessionId title untitled } }", {}, alice.token);
    const asked = after.sessions.find((s: { sessionId: string }) => s.sessionId === created.sessionId);
    expect(asked).toMatchObject({ title: "Hvem attesterer udlæg?", untitled: false });
    // REST keeps the spec's shape: the stored title, no flag
    const list = await rest(app, "GET", "/api/chat/sessions", { token: alice.token });
    const own = list.body.find((s: { session_id: string }) => s.session_id === named.sessionId);
    expect(own).toMatchObject({ title: "Ny chat" });
    expect(own).not.toHaveProperty("untitled");
  });

  it("should count the messages a send adds to a session long enough to be kept, and every regeneration", async () => {
    const sessionId = await newSession(alice.token);
    const version = async () => (await ChatSessionModel.findOne({ sessionId }).lean())?.placeVersion ?? 0;
    const { answer } = await ask(alice.token, sessionId, "Hvem attesterer udlæg?");
    // two messages: no process keeps the tree of so short a session, so the send writes no count
    expect(await version()).toBe(0);
    await gqlOk(app, Q.regenerate, { messageId: answer.id }, alice.token);
    await app.services.chat.whenIdle();
    expect(await version()).toBe(1);
    // grow the session to the size a process keeps (PLACE_CACHE_MIN_PLACES): now a send counts what it added
    const [question, reply] = await ChatMessageModel.collection
      .find({ sessionId })
      .sort({ timestamp: 1 })
      .toArray();
    const turns = [];
    let parent = (await ChatSessionModel.findOne({ sessionId }).lean())?.activeLeafId;
    const at = Date.now();
    for (let i = 0; i < PLACE_CACHE_MIN_PLACES; i++) {
      const doc = {
        ...(i % 2 === 0 ? question : reply),
        _id: new mongoose.Types.ObjectId(),
        parentId: parent,
      };
      turns.push({ ...doc, timestamp: new Date(at + (i + 1) * 1000) });
      parent = doc._id;
    }
    await ChatMessageModel.collection.insertMany(turns);
    await ChatSessionModel.updateOne({ sessionId }, { $set: { activeLeafId: parent } });
    await ask(alice.token, sessionId, "Og hvem godkender rejser?");
    expect(await version()).toBe(2);
  });

  it("should answer from the sample content with the right article cited, labelled as retrieval-only", async () => {
    const sessionId = await newSession(alice.token);
    const { sent, answer, messages } = await ask(
      alice.token,
      sessionId,
      "Hvornår skal et databrud anmeldes til Datatilsynet?",
    );
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[0].content).toBe("Hvornår skal et databrud anmeldes til Datatilsynet?");
    expect(answer.status).toBe("complete");
    expect(answer.mode).toBe("retrieval");
    expect(answer.content).toContain("Fundne tekstuddrag – ikke et skrevet svar");
    expect(answer.citations[0]).toMatchObject({
      number: 1,
      articleId: await sampleArticleId(app, "procedurer/databrud.md"),
      url: `/knowledge?article=${await sampleArticleId(app, "procedurer/databrud.md")}`,
    });
    // it opens with the article's sentence that answers when (its introduction: "... inden 72 timer"), then quotes
    // the section about the notification
    expect(answer.content).toContain("anmelde det til Datatilsynet inden 72 timer");
    expect(answer.citations.map((c: { headingPath: string[] }) => c.headingPath.join())).toContain(
      "Anmeldelse til Datatilsynet",
    );
    expect(answer.content).toContain("Databrud skal anmeldes til Datatilsynet");
    expect(answer.knowledgeGap).toBe(false);
    // the first question named the session
    expect(sent.session.title).toBe("Hvornår skal et databrud anmeldes til Datatilsynet?");
    // the activity log got 'message'
    const logged = await mongoose.connection
      .collection("activity_logs")
      .find({ action: "message", userEmail: alice.user.email })
      .toArray();
    expect(logged.some((l) => l.metadata?.sessionId === sessionId)).toBe(true);
  });

  it("should answer an off-topic question with 'not in the knowledge base' and record a knowledge gap", async () => {
    const sessionId = await newSession(alice.token);
    const question = "Hvad er opskriften på en god lagkage?";
    const { answer } = await ask(alice.token, sessionId, question);
    expect(answer.status).toBe("complete");
    expect(answer.mode).toBe("no_sources");
    expect(answer.content).toContain("Vidensbanken dækker desværre ikke dit spørgsmål");
    expect(answer.citations).toEqual([]);
    expect(answer.knowledgeGap).toBe(true);
    const gaps = await KnowledgeGapModel.find({ sessionId }).lean();
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ question, sessionId });
    expect(String(gaps[0].userId)).toBe(alice.user.id);
    // the admin sees it; a user may not
    const GAPS = "query { knowledgeGaps(limit: 10) { question count lastAskedAt examples } }";
    const adminView = await gqlOk(app, GAPS, {}, await loginAdmin(app));
    expect(adminView.knowledgeGaps[0]).toMatchObject({ question, count: 1, examples: [question] });
    expect((await gql(app, GAPS, {}, alice.token)).errors?.[0].extensions?.code).toBe("FORBIDDEN");
  });

  it("should rename, search by title and message text (case-insensitive, literal) and export Markdown", async () => {
    const sessionId = await newSession(alice.token);
    await ask(alice.token, sessionId, "Hvem attesterer udlæg?");
    await gqlOk(app, Q.rename, { sessionId, title: "Udlæg (regler) *vigtigt*" }, alice.token);
    const byTitle = await gqlOk(app, Q.search, { query: "UDLÆG (REGLER)" }, alice.token);
    expect(byTitle.searchSessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([sessionId]);
    const byText = await gqlOk(app, Q.search, { query: "hvem ATTESTERER" }, alice.token);
    expect(byText.searchSessions.map((s: { sessionId: string }) => s.sessionId)).toContain(sessionId);
    // a pattern is searched literally: as a regex 'hvem.*udlæg' would match the question above
    const pattern = await gqlOk(app, Q.search, { query: "hvem.*udlæg" }, alice.token);
    expect(pattern.searchSessions).toEqual([]);
    // another user's search never finds it
    const other = await gqlOk(app, Q.search, { query: "attesterer" }, bob.token);
    expect(other.searchSessions).toEqual([]);

    const md = (await gqlOk(app, Q.export, { sessionId }, alice.token)).exportSession as string;
    expect(md).toMatch(/^# Udlæg \(regler\) \\\*vigtigt\\\*\n/);
    expect(md).toContain("## Du · ");
    expect(md).toContain("> Hvem attesterer udlæg?");
    expect(md).toContain("## Assistent · ");
    expect(md).toContain("**Kilder**");
    const udlaeg = await sampleArticleId(app, "oekonomi/udlaeg-og-refusion.md");
    expect(md).toContain(`](/knowledge?article=${udlaeg})`);
    expect(md).toMatch(/\n1\. \[Udlæg og refusion[^\]]*\]\(/);
  });

  it("should delete a session with its messages", async () => {
    const sessionId = await newSession(alice.token);
    await ask(alice.token, sessionId, "Hvad er klagefristen?");
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(2);
    expect((await gqlOk(app, Q.delete, { sessionId }, alice.token)).deleteSession).toBe(true);
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(0);
    const again = await gql(app, Q.messages, { sessionId }, alice.token);
    expect(again.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });

  it("should refuse a question to a session deleted elsewhere and keep none of it", async () => {
    const sessionId = await newSession(alice.token);
    await ask(alice.token, sessionId, "Hvad er klagefristen?");
    // another process (another server, the CLI) deletes it: this one is not told
    await mongoose.connection.collection("chat_sessions").deleteOne({ sessionId });
    await mongoose.connection.collection("chat_messages").deleteMany({ sessionId });
    const res = await gql(app, Q.send, { sessionId, content: "Hvem attesterer udlæg?" }, alice.token);
    expect(res.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    await app.services.chat.whenIdle();
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(0);
    // and a session of another user never takes a question, known or not
    const bobs = await newSession(bob.token);
    const foreign = await gql(
      app,
      Q.send,
      { sessionId: bobs, content: "Hvad er klagefristen?" },
      alice.token,
    );
    expect(foreign.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    await app.services.chat.whenIdle();
    expect(await ChatMessageModel.countDocuments({ sessionId: bobs })).toBe(0);
  });
});

describe("chat REST compatibility (spec §7)", () => {
  it("should create, post and poll until the assistant's answer is the last message", async () => {
    const created = await rest(app, "POST", "/api/chat/sessions/new", {
      body: { title: "Ny chat" },
      token: alice.token,
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.session_id as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const list = await rest(app, "GET", "/api/chat/sessions", { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ session_id: sessionId, title: "Ny chat" });

    const posted = await rest(app, "POST", "/api/chat/messages", {
      token: alice.token,
      // the client's userId is ignored: the message is the signed-in user's
      body: { userId: bob.user.id, sessionId, content: "Hvem attesterer udlæg?", role: "user" },
    });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ role: "user", content: "Hvem attesterer udlæg?" });
    const stored = await ChatMessageModel.findById(posted.body.id).lean();
    expect(String(stored?.userId)).toBe(alice.user.id);

    const messages = await eventually(async () => {
      const res = await rest(app, "GET", `/api/chat/messages/${sessionId}`, { token: alice.token });
      return res.body.at(-1)?.role === "assistant" ? res.body : undefined;
    });
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1].content).toContain("Fundne tekstuddrag");
    expect(messages[1].citations[0].articleId).toBe(
      await sampleArticleId(app, "oekonomi/udlaeg-og-refusion.md"),
    );
    const byQuery = await rest(app, "GET", `/api/chat/messages?sessionId=${sessionId}`, {
      token: alice.token,
    });
    expect(byQuery.body.map((m: { id: string }) => m.id)).toEqual(messages.map((m: { id: string }) => m.id));
  });

  it("should page a session's messages from the newest end with before and limit (REST and GraphQL)", async () => {
    const sessionId = await newSession(alice.token);
    await ask(alice.token, sessionId, "Hvem attesterer udlæg?");
    const { messages: all } = await ask(alice.token, sessionId, "Hvad med rejser?");
    const allIds = all.map((m: { id: string }) => m.id);
    expect(allIds).toHaveLength(4);
    const url = `/api/chat/messages/${sessionId}`;
    const newest = await rest(app, "GET", `${url}?limit=2`, { token: alice.token });
    expect(newest.body.map((m: { id: string }) => m.id)).toEqual(allIds.slice(2));
    // earlier messages exist: the first one has a parent
    expect(newest.body[0].parentId).toBe(allIds[1]);
    const earlier = await rest(app, "GET", `${url}?limit=2&before=${allIds[2]}`, { token: alice.token });
    expect(earlier.body.map((m: { id: string }) => m.id)).toEqual(allIds.slice(0, 2));
    expect(earlier.body[0].parentId).toBeNull();
    expect((await rest(app, "GET", `${url}?limit=lots`, { token: alice.token })).status).toBe(400);
    expect((await rest(app, "GET", `${url}?before=${"0".repeat(24)}`, { token: alice.token })).status).toBe(
      404,
    );
    // Bob cannot page Alice's session, not even with her message ids
    const bobs = await rest(app, "GET", `${url}?before=${allIds[2]}`, { token: bob.token });
    expect(bobs.status).toBe(404);

    const page = `query Page($sessionId: ID!, $before: ID, $limit: Int) {
      messages(sessionId: $sessionId, before: $before, limit: $limit) { id parentId } }`;
    const one = await gqlOk(app, page, { sessionId, before: allIds[3], limit: 1 }, alice.token);
    expect(one.messages).toEqual([{ id: allIds[2], parentId: allIds[1] }]);
    const clamped = await gqlOk(app, page, { sessionId, limit: 0 }, alice.token);
    expect(clamped.messages.map((m: { id: string }) => m.id)).toEqual([allIds[3]]);
  });

  it("should answer 401 without sign-in", async () => {
    expect((await rest(app, "GET", "/api/chat/sessions")).status).toBe(401);
    expect((await rest(app, "POST", "/api/chat/sessions/new", { body: { title: "Ny chat" } })).status).toBe(
      401,
    );
    const res = await rest(app, "POST", "/api/chat/messages", { body: { sessionId: "x", content: "hej" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHENTICATED");
    const g = await gql(app, Q.sessions, {});
    expect(g.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("chat ownership", () => {
  let sessionId: string;
  let answerId: string;
  let questionId: string;

  beforeAll(async () => {
    sessionId = await newSession(alice.token);
    const { answer, sent } = await ask(alice.token, sessionId, "Hvad er klagefristen?");
    answerId = answer.id;
    questionId = sent.userMessage.id;
  });

  it("should answer NOT_FOUND over GraphQL for every operation on another user's session or message", async () => {
    const attempts: Array<[string, Record<string, unknown>]> = [
      [Q.messages, { sessionId }],
      [Q.export, { sessionId }],
      [Q.rename, { sessionId, title: "Hacket" }],
      [Q.delete, { sessionId }],
      [Q.send, { sessionId, content: "Indsprøjtet spørgsmål" }],
      [Q.setScope, { sessionId, scope: { kind: "BOOKMARKS" } }],
      [Q.stop, { messageId: answerId }],
      [Q.retry, { messageId: answerId }],
      [Q.feedback, { messageId: answerId, rating: "down" }],
      [Q.regenerate, { messageId: answerId }],
      [Q.switchBranch, { messageId: answerId }],
      [Q.edit, { messageId: questionId, content: "Indsprøjtet rettelse" }],
    ];
    for (const [query, variables] of attempts) {
      const res = await gql(app, query, variables, bob.token);
      expect(res.errors?.[0].extensions?.code, query).toBe("NOT_FOUND");
    }
    // an unknown id looks exactly the same (no existence leak)
    const unknown = await gql(
      app,
      Q.messages,
      { sessionId: "00000000-0000-0000-0000-000000000000" },
      bob.token,
    );
    expect(unknown.errors?.[0]).toMatchObject({
      message: "Samtalen findes ikke",
      extensions: { code: "NOT_FOUND" },
    });
    // nothing changed
    const mine = await gqlOk(app, Q.messages, { sessionId }, alice.token);
    expect(mine.messages).toHaveLength(2);
    expect(mine.messages[1].feedback).toBeNull();
  });

  it("should answer 404 over REST for another user's session", async () => {
    const read = await rest(app, "GET", `/api/chat/messages/${sessionId}`, { token: bob.token });
    expect(read.status).toBe(404);
    expect(read.body.code).toBe("NOT_FOUND");
    const post = await rest(app, "POST", "/api/chat/messages", {
      token: bob.token,
      body: { userId: alice.user.id, sessionId, content: "Indsprøjtet", role: "user" },
    });
    expect(post.status).toBe(404);
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(2);
    const scope = await rest(app, "PUT", `/api/chat/sessions/${sessionId}/scope`, {
      token: bob.token,
      body: { kind: "BOOKMARKS" },
    });
    expect(scope.status).toBe(404);
    expect(scope.body.code).toBe("NOT_FOUND");
  });

  it("should refuse a subscription to another user's session and deliver nothing of it", async () => {
    const bobClient = wsClient(app, bob.token);
    clients.push(bobClient);
    const spy = new EventCollector(bobClient, sessionId);
    const errors = await spy.untilError();
    expect(errors[0]).toMatchObject({ message: "Samtalen findes ikke", extensions: { code: "NOT_FOUND" } });

    // alice's own subscription works, and bob's got none of her events
    const aliceClient = wsClient(app, alice.token);
    clients.push(aliceClient);
    const own = new EventCollector(aliceClient, sessionId);
    await new Promise((r) => setTimeout(r, 200));
    const sent = await gqlOk(
      app,
      Q.send,
      { sessionId, content: "Hvad er klagefristen ved afgørelser?" },
      alice.token,
    );
    await own.until(ended(sent.sendMessage.assistantMessage.id));
    expect(own.events.map((e) => e.type)).toContain("COMPLETED");
    expect(spy.events).toEqual([]);
    // unsubscribing leaves nothing behind
    expect(app.services.chat.subscriberCount()).toBe(1);
    own.close();
    await eventually(async () => (app.services.chat.subscriberCount() === 0 ? true : undefined));

    const anonymous = wsClient(app);
    clients.push(anonymous);
    const anon = new EventCollector(anonymous, sessionId);
    expect((await anon.untilError())[0].extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("should let only the owner give feedback", async () => {
    const res = await gqlOk(
      app,
      Q.feedback,
      { messageId: answerId, rating: "up", comment: "  Præcist svar  " },
      alice.token,
    );
    expect(res.setFeedback.feedback).toEqual({ rating: "up", comment: "Præcist svar" });
    const bad = await gql(app, Q.feedback, { messageId: answerId, rating: "meh" }, alice.token);
    expect(bad.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("chat bad input", () => {
  let sessionId: string;
  beforeAll(async () => {
    sessionId = await newSession(alice.token);
  });

  it("should refuse empty and whitespace-only messages and store nothing", async () => {
    for (const content of ["", "   \n\t  "]) {
      const res = await gql(app, Q.send, { sessionId, content }, alice.token);
      expect(res.errors?.[0]).toMatchObject({
        message: "Beskeden er tom. Skriv et spørgsmål, før du sender.",
        extensions: { code: "BAD_USER_INPUT" },
      });
      const r = await rest(app, "POST", "/api/chat/messages", {
        token: alice.token,
        body: { sessionId, content, role: "user" },
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: "BAD_USER_INPUT",
        message: "Beskeden er tom. Skriv et spørgsmål, før du sender.",
      });
    }
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(0);
  });

  it("should refuse a 100,000-character message with the limit in the message", async () => {
    const content = "a".repeat(100_000);
    const res = await gql(app, Q.send, { sessionId, content }, alice.token);
    expect(res.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0].message).toContain("højst 8.000 tegn");
    expect(res.errors?.[0].message).toContain("100.000 tegn");
    const r = await rest(app, "POST", "/api/chat/messages", {
      token: alice.token,
      body: { sessionId, content },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("højst 8.000 tegn");
    // exactly at the limit is fine
    expect(CHAT_MESSAGE_MAX_LENGTH).toBe(8_000);
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(0);
  });

  it("should answer JSON when the body is over the size limit, and refuse wrong types and roles", async () => {
    const huge = await rest(app, "POST", "/api/chat/messages", {
      token: alice.token,
      body: { sessionId, content: "å".repeat(1_200_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "Forespørgslen er for stor" });
    const notText = await rest(app, "POST", "/api/chat/messages", {
      token: alice.token,
      body: { sessionId, content: { $ne: null } },
    });
    expect(notText.status).toBe(400);
    expect(notText.body.message).toBe("Beskeden skal være tekst.");
    const asAssistant = await rest(app, "POST", "/api/chat/messages", {
      token: alice.token,
      body: { sessionId, content: "Jeg er assistenten", role: "assistant" },
    });
    expect(asAssistant.status).toBe(400);
    expect(asAssistant.body.message).toBe("Kun brugerbeskeder kan sendes (role skal være 'user')");
    const badSession = await rest(app, "POST", "/api/chat/messages", {
      token: alice.token,
      body: { sessionId: { $gt: "" }, content: "hej" },
    });
    expect(badSession.status).toBe(400);
    const longTitle = await gql(app, Q.rename, { sessionId, title: "x".repeat(61) }, alice.token);
    expect(longTitle.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(0);
  });
});

describe("chat crash recovery", () => {
  it("should mark answers left generating by a dead process as retryable errors, and retry them", async () => {
    const sessionId = await newSession(alice.token);
    const { sent } = await ask(alice.token, sessionId, "Hvem attesterer udlæg?");
    const answerId = sent.assistantMessage.id;
    // as a crashed process leaves it: streaming, partial text, its last heartbeat long ago
    await ChatMessageModel.updateOne(
      { _id: answerId },
      {
        $set: {
          status: "streaming",
          content: "Halvt svar",
          worker: "dead-process",
          heartbeatAt: new Date(Date.now() - 120_000),
        },
      },
    );
    expect(await app.services.chat.recoverInterrupted()).toBe(1);
    const recovered = (await gqlOk(app, Q.messages, { sessionId }, alice.token)).messages[1];
    expect(recovered).toMatchObject({
      status: "error",
      content: "Halvt svar",
      error: {
        code: "INTERRUPTED",
        retryable: true,
        message: "Svaret blev afbrudt, fordi serveren genstartede. Prøv igen.",
      },
    });
    // REST pollers see it now (it is no longer in progress)
    const polled = await rest(app, "GET", `/api/chat/messages/${sessionId}`, { token: alice.token });
    expect(polled.body.at(-1)).toMatchObject({ id: answerId, role: "assistant", status: "error" });

    const retried = await gqlOk(app, Q.retry, { messageId: answerId }, alice.token);
    expect(retried.retryMessage).toMatchObject({ id: answerId, status: "pending", content: "" });
    await app.services.chat.whenIdle();
    const after = (await gqlOk(app, Q.messages, { sessionId }, alice.token)).messages;
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({ id: answerId, status: "complete", error: null });
    expect(after[1].citations[0].articleId).toBe(
      await sampleArticleId(app, "oekonomi/udlaeg-og-refusion.md"),
    );
  });

  it("should leave an answer alone while its process keeps beating", async () => {
    const sessionId = await newSession(alice.token);
    const { sent } = await ask(alice.token, sessionId, "Hvem attesterer udlæg?");
    await ChatMessageModel.updateOne(
      { _id: sent.assistantMessage.id },
      { $set: { status: "streaming", worker: "other-live-process", heartbeatAt: new Date() } },
    );
    expect(await app.services.chat.recoverInterrupted()).toBe(0);
    // the owner can still stop it (the process is gone from here): kept as stopped
    const stopped = await gqlOk(app, Q.stop, { messageId: sent.assistantMessage.id }, alice.token);
    expect(stopped.stopMessage.status).toBe("stopped");
  });
});
