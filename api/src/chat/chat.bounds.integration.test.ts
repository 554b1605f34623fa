/**
 * The bounds on what a user stores in the chat, through the real API over the embedded store: sessions per user
 * (chat.session-count.ts) and messages per session (chat.message-count.ts), each refused with its stable code and
 * the catalogue's Danish text, nothing stored, and holding under requests at once. Small caps here (the defaults
 * are CHAT_SESSIONS_PER_USER_MAX and CHAT_MESSAGES_PER_SESSION_MAX); answers come from retrieval (no model).
 * And the Markdown export, which must load nothing in a viewer: no image, no HTML, from the user's text or an answer.
 */
import { micromark } from "micromark";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, rest } from "../testing/client";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { gqlOk, Q } from "./chat.test-helpers";

const SESSIONS = 4;
const MESSAGES = 6;
const LIMIT_TEXT =
  "Du har 4 samtaler, som er det højeste antal. Slet nogle gamle samtaler for at starte en ny.";
const FULL_TEXT = "Samtalen er blevet for lang. Start en ny samtale for at fortsætte.";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    mail: "outbox",
    config: {
      chatLimits: { sessionsPerUser: SESSIONS, messagesPerSession: MESSAGES, maxInFlightPerUser: 8 },
    },
  });
});
afterAll(async () => {
  await app?.services.chat.whenIdle();
  await app?.close();
});

type User = Awaited<ReturnType<typeof createVerifiedUser>>;

const createGql = (u: User) => gql(app, Q.create, {}, u.token);
const createRest = (u: User) => rest(app, "POST", "/api/chat/sessions/new", { token: u.token, body: {} });
const storedSessions = (u: User) =>
  ChatSessionModel.countDocuments({ userId: new mongoose.Types.ObjectId(u.user.id) });
const storedMessages = (sessionId: string) => ChatMessageModel.countDocuments({ sessionId });

async function newSession(u: User): Promise<string> {
  return (await gqlOk(app, Q.create, {}, u.token)).createSession.sessionId;
}

/** Send a question and wait until its answer is stored. */
async function ask(u: User, sessionId: string, content: string) {
  const sent = (await gqlOk(app, Q.send, { sessionId, content }, u.token)).sendMessage;
  await app.services.chat.whenIdle();
  return sent as { userMessage: { id: string }; assistantMessage: { id: string } };
}

function expectRefusedGql(
  res: Awaited<ReturnType<typeof gql>>,
  code: string,
  key: string,
  message: string,
): void {
  expect(res.errors?.[0]).toMatchObject({ message, extensions: { code, messageKey: key } });
}

/** A session stored as before the bounds: no message count, `n` messages (question and answer in turn). */
async function legacySession(u: User, n: number): Promise<string> {
  const userId = new mongoose.Types.ObjectId(u.user.id);
  const sessionId = `legacy-${new mongoose.Types.ObjectId().toHexString()}`;
  const now = Date.now();
  await ChatSessionModel.collection.insertOne({
    userId,
    sessionId,
    title: "Gammel samtale",
    titled: true,
    createdAt: new Date(now - 60_000),
    lastUpdated: new Date(now - 60_000),
  });
  let parentId: mongoose.Types.ObjectId | null = null;
  for (let i = 0; i < n; i++) {
    const _id = new mongoose.Types.ObjectId();
    const role = i % 2 === 0 ? "user" : "assistant";
    await ChatMessageModel.collection.insertOne({
      _id,
      userId,
      sessionId,
      role,
      content: role === "user" ? `Spørgsmål ${i}` : `Svar ${i}`,
      timestamp: new Date(now - 50_000 + i),
      parentId,
      ...(role === "assistant" ? { status: "complete", replyTo: parentId, citations: [] } : {}),
    });
    parentId = _id;
  }
  return sessionId;
}

describe("sessions per user", () => {
  it("should refuse one more session over GraphQL and REST with CHAT_SESSION_LIMIT, and take one after a delete", async () => {
    const u = await createVerifiedUser(app);
    for (let i = 0; i < SESSIONS - 1; i++) await newSession(u);
    expect((await createRest(u)).status).toBe(201);
    expectRefusedGql(await createGql(u), "CHAT_SESSION_LIMIT", "chat.sessionLimit", LIMIT_TEXT);
    const refused = await createRest(u);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: { code: "CHAT_SESSION_LIMIT", message: LIMIT_TEXT },
    });
    expect(await storedSessions(u)).toBe(SESSIONS);
    // deleting one gives its place back, once
    const { sessions } = await gqlOk(app, Q.sessions, {}, u.token);
    await gqlOk(app, Q.delete, { sessionId: sessions[0].sessionId }, u.token);
    await gql(app, Q.delete, { sessionId: sessions[0].sessionId }, u.token);
    await newSession(u);
    expectRefusedGql(await createGql(u), "CHAT_SESSION_LIMIT", "chat.sessionLimit", LIMIT_TEXT);
    expect(await storedSessions(u)).toBe(SESSIONS);
  });

  it("should let exactly the cap through when many sessions are created at once", async () => {
    const u = await createVerifiedUser(app);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? createGql(u).then((r) => r.errors?.[0].extensions?.code ?? "OK")
          : createRest(u).then((r) => (r.status === 201 ? "OK" : r.body.code)),
      ),
    );
    expect(answers.filter((a) => a === "OK")).toHaveLength(SESSIONS);
    expect(answers.filter((a) => a === "CHAT_SESSION_LIMIT")).toHaveLength(12 - SESSIONS);
    expect(await storedSessions(u)).toBe(SESSIONS);
  });

  it("should let a user already over the cap read and delete, and create again only under it", async () => {
    const u = await createVerifiedUser(app);
    const old = [];
    for (let i = 0; i < SESSIONS + 2; i++) old.push(await legacySession(u, 2));
    expectRefusedGql(await createGql(u), "CHAT_SESSION_LIMIT", "chat.sessionLimit", LIMIT_TEXT);
    const { sessions } = await gqlOk(app, Q.sessions, {}, u.token);
    expect(sessions).toHaveLength(SESSIONS + 2);
    expect((await gqlOk(app, Q.messages, { sessionId: old[0] }, u.token)).messages).toHaveLength(2);
    for (const sessionId of old.slice(0, 2)) await gqlOk(app, Q.delete, { sessionId }, u.token);
    // at the cap now: still no new one
    expectRefusedGql(await createGql(u), "CHAT_SESSION_LIMIT", "chat.sessionLimit", LIMIT_TEXT);
    await gqlOk(app, Q.delete, { sessionId: old[2] }, u.token);
    await newSession(u);
    expect(await storedSessions(u)).toBe(SESSIONS);
  });
});

describe("messages per session", () => {
  it("should refuse a question into a full session with CHAT_SESSION_FULL over GraphQL and REST, storing nothing", async () => {
    const u = await createVerifiedUser(app);
    const sessionId = await newSession(u);
    for (let i = 0; i < MESSAGES / 2; i++) await ask(u, sessionId, `Hvem attesterer udlæg? (${i})`);
    expect(await storedMessages(sessionId)).toBe(MESSAGES);
    const before = await ChatSessionModel.findOne({ sessionId }).lean();
    expectRefusedGql(
      await gql(app, Q.send, { sessionId, content: "Et spørgsmål for meget" }, u.token),
      "CHAT_SESSION_FULL",
      "chat.sessionFull",
      FULL_TEXT,
    );
    const refused = await rest(app, "POST", "/api/chat/messages", {
      token: u.token,
      body: { sessionId, content: "Et spørgsmål for meget" },
    });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: { code: "CHAT_SESSION_FULL", message: FULL_TEXT },
    });
    expect(await storedMessages(sessionId)).toBe(MESSAGES);
    // the refused questions left the session as it was (last used, shown branch)
    const after = await ChatSessionModel.findOne({ sessionId }).lean();
    expect(after?.lastUpdated).toEqual(before?.lastUpdated);
    expect(String(after?.activeLeafId)).toBe(String(before?.activeLeafId));
    // another session of the user still takes questions
    await ask(u, await newSession(u), "Hvem attesterer udlæg?");
  });

  it("should let one of two questions sent at once into the last places through", async () => {
    const u = await createVerifiedUser(app);
    const sessionId = await newSession(u);
    for (let i = 0; i < MESSAGES / 2 - 1; i++) await ask(u, sessionId, `Spørgsmål ${i}`);
    const answers = await Promise.all(
      ["Først?", "Eller først?"].map((content) =>
        gql(app, Q.send, { sessionId, content }, u.token).then((r) => r.errors?.[0].extensions?.code ?? "OK"),
      ),
    );
    await app.services.chat.whenIdle();
    expect(answers.sort()).toEqual(["CHAT_SESSION_FULL", "OK"]);
    expect(await storedMessages(sessionId)).toBe(MESSAGES);
  });

  it("should count edits and regenerations, and refuse them too when the session is full", async () => {
    const u = await createVerifiedUser(app);
    const sessionId = await newSession(u);
    const first = await ask(u, sessionId, "Hvem attesterer udlæg?");
    await gqlOk(app, Q.regenerate, { messageId: first.assistantMessage.id }, u.token); // 3
    await app.services.chat.whenIdle();
    await gqlOk(app, Q.edit, { messageId: first.userMessage.id, content: "Hvem godkender udlæg?" }, u.token); // 5
    await app.services.chat.whenIdle();
    // a question needs two places, one is left
    expectRefusedGql(
      await gql(app, Q.send, { sessionId, content: "Og rejser?" }, u.token),
      "CHAT_SESSION_FULL",
      "chat.sessionFull",
      FULL_TEXT,
    );
    expectRefusedGql(
      await gql(app, Q.edit, { messageId: first.userMessage.id, content: "Og rejser?" }, u.token),
      "CHAT_SESSION_FULL",
      "chat.sessionFull",
      FULL_TEXT,
    );
    await gqlOk(app, Q.regenerate, { messageId: first.assistantMessage.id }, u.token); // 6
    await app.services.chat.whenIdle();
    expectRefusedGql(
      await gql(app, Q.regenerate, { messageId: first.assistantMessage.id }, u.token),
      "CHAT_SESSION_FULL",
      "chat.sessionFull",
      FULL_TEXT,
    );
    expect(await storedMessages(sessionId)).toBe(MESSAGES);
  });

  it("should count a session from before the bound at its next question", async () => {
    const u = await createVerifiedUser(app);
    const full = await legacySession(u, MESSAGES);
    expectRefusedGql(
      await gql(app, Q.send, { sessionId: full, content: "Og nu?" }, u.token),
      "CHAT_SESSION_FULL",
      "chat.sessionFull",
      FULL_TEXT,
    );
    expect(await storedMessages(full)).toBe(MESSAGES);
    const roomy = await legacySession(u, 2);
    await ask(u, roomy, "Og nu?");
    expect((await ChatSessionModel.findOne({ sessionId: roomy }).lean())?.messageCount).toBe(4);
    // another user's session is not found, full or not
    const other = await createVerifiedUser(app);
    expect(
      (await gql(app, Q.send, { sessionId: full, content: "Hej" }, other.token)).errors?.[0].extensions?.code,
    ).toBe("NOT_FOUND");
  });
});

describe("the Markdown export", () => {
  it("should load no image and no HTML in a Markdown viewer, from the user's text or a stored answer", async () => {
    const u = await createVerifiedUser(app);
    const sessionId = await newSession(u);
    await ask(
      u,
      sessionId,
      "Se ![kvittering](https://evil.example/a.png?q=udlaeg) og <img src=https://evil.example/b.png>",
    );
    // an answer stored with HTML and an image (before the answer engine stripped HTML, or a model asked to write one)
    await ChatMessageModel.updateOne(
      { sessionId, role: "assistant" },
      { $set: { content: "Svar ![spor](https://evil.example/c.png) <img src=https://evil.example/d.png>" } },
    );
    const { exportSession } = await gqlOk(app, Q.export, { sessionId }, u.token);
    const html = micromark(exportSession, { allowDangerousHtml: true });
    expect(html).not.toMatch(/<img/i);
    // each image is a link to its address, as the web app shows it
    expect(html).toContain('<a href="https://evil.example/a.png?q=udlaeg">kvittering</a>');
    expect(html).toContain('<a href="https://evil.example/c.png">spor</a>');
  });
});
