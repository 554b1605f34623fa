/**
 * Branches and follow-ups over the whole server (startTestApp) with the fake OpenAI server: edit and regenerate
 * keep the old branch, switching changes the history the model receives, export and search follow the shown
 * branch, follow-ups come from the cited article's headings, and other users' ids are refused like unknown ones.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, rest } from "../testing/client";
import { type FakeChatRequest, type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import { markdownHeadings } from "./answer";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { gqlOk, Q, sampleArticleId } from "./chat.test-helpers";

let fake: FakeOpenAI;
let app: TestApp;
let alice: { token: string; user: { id: string } };
let bob: { token: string; user: { id: string } };
let klagerId: string;

/** The model answers each question with its last words and cites source 1. */
function scripted(req: FakeChatRequest): string {
  if (!req.stream) return "Titel";
  const last = req.messages.at(-1)?.content;
  return `Svar på: ${typeof last === "string" ? last : ""} [1]`;
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: scripted, firstTokenDelayMs: 0, tokenDelayMs: 0, apiKey: "sk-test" });
  app = await startTestApp({
    mail: "outbox",
    config: {
      openaiBaseUrl: fake.baseURL,
      openaiApiKey: "sk-test",
      openaiModel: "fake-model",
      chatLimits: { llmTimeoutMs: 4_000, llmFirstTokenTimeoutMs: 2_000, llmMaxRetries: 0, heartbeatMs: 200 },
    },
  });
  alice = await createVerifiedUser(app);
  bob = await createVerifiedUser(app);
  klagerId = await sampleArticleId(app, "sagsbehandling/klager-over-afgoerelser.md");
});
afterEach(async () => {
  await app.services.chat.whenIdle();
  fake.reset();
});
afterAll(async () => {
  await app?.services.chat.whenIdle();
  await app?.close();
  await fake?.close();
});

type Msg = {
  id: string;
  role: string;
  content: string;
  status: string | null;
  parentId: string | null;
  siblingIndex: number;
  siblingCount: number;
  siblingIds: string[];
  followUps: string[];
  citations: Array<{ articleId: string; headingPath: string[] }>;
};

async function shown(sessionId: string, token = alice.token): Promise<Msg[]> {
  return (await gqlOk(app, Q.branch, { sessionId }, token)).messages;
}

/** The conversation (user and assistant turns) of the model's last streamed request. */
function lastHistory(): string[] {
  const req = fake
    .chatRequests()
    .filter((r) => r.body.stream === true)
    .at(-1);
  return ((req?.body.messages ?? []) as Array<{ role: string; content: string }>)
    .filter((m) => m.role !== "system")
    .map((m) => `${m.role}:${m.content}`);
}

async function send(sessionId: string, content: string) {
  const sent = (await gqlOk(app, Q.send, { sessionId, content }, alice.token)).sendMessage;
  await app.services.chat.whenIdle();
  return sent;
}

describe("chat branches", () => {
  let sessionId: string;
  let q1: string;
  let q2: string;
  let q2b: string;

  it("should keep the old question when one is edited, and give the model the new branch only", async () => {
    sessionId = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId;
    q1 = (await send(sessionId, "Hvad er klagefristen?")).userMessage.id;
    const second = await send(sessionId, "Hvem behandler klagen?");
    q2 = second.userMessage.id;
    expect((await shown(sessionId)).map((m) => m.parentId)).toEqual([null, q1, expect.any(String), q2]);

    const edited = (
      await gqlOk(app, Q.edit, { messageId: q2, content: "Hvem er i klageudvalget?" }, alice.token)
    ).editMessage;
    await app.services.chat.whenIdle();
    q2b = edited.userMessage.id;
    expect(edited.userMessage).toMatchObject({ siblingIndex: 2, siblingCount: 2, siblingIds: [q2, q2b] });
    expect(edited.assistantMessage).toMatchObject({ status: "pending", parentId: q2b });
    expect(lastHistory()).toEqual([
      "user:Hvad er klagefristen?",
      "assistant:Svar på: Hvad er klagefristen?",
      "user:Hvem er i klageudvalget?",
    ]);
    const list = await shown(sessionId);
    expect(list.map((m) => m.content)).toEqual([
      "Hvad er klagefristen?",
      "Svar på: Hvad er klagefristen? [1]",
      "Hvem er i klageudvalget?",
      "Svar på: Hvem er i klageudvalget? [1]",
    ]);
    expect(list[2]).toMatchObject({ siblingIndex: 2, siblingCount: 2 });
    // nothing was lost: the old question and its answer are still stored
    expect(await ChatMessageModel.countDocuments({ sessionId })).toBe(6);
    expect(await ChatMessageModel.exists({ _id: q2 })).toBeTruthy();
  });

  it("should change what the next answer's history contains when the branch is switched", async () => {
    const thread: Msg[] = (await gqlOk(app, Q.switchBranch, { messageId: q2 }, alice.token)).switchBranch;
    expect(thread.map((m) => m.content)).toEqual([
      "Hvad er klagefristen?",
      "Svar på: Hvad er klagefristen? [1]",
      "Hvem behandler klagen?",
      "Svar på: Hvem behandler klagen? [1]",
    ]);
    expect(thread[2]).toMatchObject({ id: q2, siblingIndex: 1, siblingCount: 2 });
    expect((await shown(sessionId)).map((m) => m.id)).toEqual(thread.map((m) => m.id));

    await send(sessionId, "Hvor lang tid tager det?");
    expect(lastHistory()).toEqual([
      "user:Hvad er klagefristen?",
      "assistant:Svar på: Hvad er klagefristen?",
      "user:Hvem behandler klagen?",
      "assistant:Svar på: Hvem behandler klagen?",
      "user:Hvor lang tid tager det?",
    ]);
    // and back: the edited branch shows again, and a question there follows it
    await gqlOk(app, Q.switchBranch, { messageId: q2b }, alice.token);
    await send(sessionId, "Og bagefter?");
    expect(lastHistory()).toEqual([
      "user:Hvad er klagefristen?",
      "assistant:Svar på: Hvad er klagefristen?",
      "user:Hvem er i klageudvalget?",
      "assistant:Svar på: Hvem er i klageudvalget?",
      "user:Og bagefter?",
    ]);
  });

  it("should regenerate an answer as a sibling, with the history up to its question", async () => {
    const before = await shown(sessionId);
    const answer = before.at(-1) as Msg;
    const fresh: Msg = (await gqlOk(app, Q.regenerate, { messageId: answer.id }, alice.token))
      .regenerateMessage;
    expect(fresh).toMatchObject({
      status: "pending",
      parentId: answer.parentId,
      siblingIndex: 2,
      siblingCount: 2,
    });
    expect(fresh.siblingIds).toEqual([answer.id, fresh.id]);
    await app.services.chat.whenIdle();
    expect(lastHistory()).toEqual([
      "user:Hvad er klagefristen?",
      "assistant:Svar på: Hvad er klagefristen?",
      "user:Hvem er i klageudvalget?",
      "assistant:Svar på: Hvem er i klageudvalget?",
      "user:Og bagefter?",
    ]);
    const after = await shown(sessionId);
    expect(after.map((m) => m.id)).toEqual([...before.slice(0, -1).map((m) => m.id), fresh.id]);
    expect(after.at(-1)).toMatchObject({ status: "complete", siblingIndex: 2, siblingCount: 2 });
    // the first answer is still there, one switch away
    const back: Msg[] = (await gqlOk(app, Q.switchBranch, { messageId: answer.id }, alice.token))
      .switchBranch;
    expect(back.at(-1)?.id).toBe(answer.id);
  });

  it("should export and search the shown branch only", async () => {
    await gqlOk(app, Q.switchBranch, { messageId: q2 }, alice.token);
    const md = (await gqlOk(app, Q.export, { sessionId }, alice.token)).exportSession as string;
    expect(md).toContain("Hvem behandler klagen?");
    expect(md).not.toContain("klageudvalget");
    const search = async (query: string) =>
      (await gqlOk(app, Q.search, { query }, alice.token)).searchSessions.map(
        (s: { sessionId: string }) => s.sessionId,
      );
    expect(await search("behandler klagen")).toContain(sessionId);
    expect(await search("i klageudvalget")).not.toContain(sessionId);
    await gqlOk(app, Q.switchBranch, { messageId: q2b }, alice.token);
    expect(await search("i klageudvalget")).toContain(sessionId);
    expect(await search("behandler klagen")).not.toContain(sessionId);
  });

  it("should suggest up to 3 follow-ups from the cited article's headings it did not quote", async () => {
    const s = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId;
    const question = "Hvad er klagefristen for en afgørelse?";
    await send(s, question);
    const [, answer] = await shown(s);
    expect(answer.citations[0]?.articleId).toBe(klagerId);
    const article = await app.services.knowledge.getArticle(klagerId);
    const headings = markdownHeadings(article.content);
    const quoted = answer.citations.map((c) => c.headingPath.at(-1));
    expect(answer.followUps.length).toBeGreaterThan(0);
    expect(answer.followUps.length).toBeLessThanOrEqual(3);
    for (const f of answer.followUps) {
      expect(f).not.toBe(question);
      const from = headings.find(
        (h) => f === h || f === `Hvad står der om ${h.charAt(0).toLowerCase()}${h.slice(1)}?`,
      );
      expect(from, f).toBeDefined();
      expect(quoted).not.toContain(from);
    }
    // the question is not followed up: follow-ups are for answers only
    expect((await shown(s))[0]?.followUps).toEqual([]);
  });
});

describe("chat branches: limits and ownership", () => {
  it("should refuse other users' ids, answers as questions and questions as answers, like unknown ids", async () => {
    const s = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId;
    const sent = await send(s, "Hvad er klagefristen?");
    const q = sent.userMessage.id;
    const a = sent.assistantMessage.id;
    const unknown = "0123456789abcdef01234567";
    const attempts: Array<[string, Record<string, unknown>, string]> = [
      [Q.edit, { messageId: q, content: "Indsprøjtet" }, bob.token],
      [Q.regenerate, { messageId: a }, bob.token],
      [Q.switchBranch, { messageId: q }, bob.token],
      [Q.edit, { messageId: unknown, content: "x" }, alice.token],
      [Q.regenerate, { messageId: unknown }, alice.token],
      [Q.switchBranch, { messageId: "not-an-id" }, alice.token],
      [Q.edit, { messageId: a, content: "Et svar kan ikke rettes" }, alice.token],
      [Q.regenerate, { messageId: q }, alice.token],
    ];
    for (const [query, variables, token] of attempts) {
      const res = await gql(app, query, variables, token);
      expect(res.errors?.[0], JSON.stringify(variables)).toMatchObject({
        message: "Beskeden findes ikke",
        extensions: { code: "NOT_FOUND" },
      });
    }
    expect(await ChatMessageModel.countDocuments({ sessionId: s })).toBe(2);
    // REST alike: 404 for another user's message
    for (const path of [
      `/api/chat/messages/${q}/edit`,
      `/api/chat/messages/${a}/regenerate`,
      `/api/chat/messages/${q}/switch`,
    ]) {
      const res = await rest(app, "POST", path, { token: bob.token, body: { content: "Indsprøjtet" } });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    const viaRest = await rest(app, "POST", `/api/chat/messages/${a}/switch`, {
      token: alice.token,
      body: {},
    });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.map((m: { id: string }) => m.id)).toEqual([q, a]);
    // bad content is refused before anything is stored, like a send
    const empty = await gql(app, Q.edit, { messageId: q, content: "   " }, alice.token);
    expect(empty.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(await ChatMessageModel.countDocuments({ sessionId: s })).toBe(2);
  });

  it("should refuse editing a question while its answer is generating, and respect the answers-in-flight limit", async () => {
    const s = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId;
    const first = await send(s, "Hvad er klagefristen?");
    fake.setBehaviour({ firstTokenDelayMs: 1_500 });
    const slow = (await gqlOk(app, Q.send, { sessionId: s, content: "Hvem behandler klagen?" }, alice.token))
      .sendMessage;
    const busy = await gql(app, Q.edit, { messageId: slow.userMessage.id, content: "Rettet" }, alice.token);
    expect(busy.errors?.[0]).toMatchObject({ extensions: { code: "CONFLICT" } });
    expect(busy.errors?.[0].message).toContain("Svaret er stadig undervejs");
    const busyAnswer = await gql(app, Q.regenerate, { messageId: slow.assistantMessage.id }, alice.token);
    expect(busyAnswer.errors?.[0].extensions?.code).toBe("CONFLICT");
    // a second answer in flight is allowed (2), a third is refused with nothing stored
    const second = await gqlOk(app, Q.regenerate, { messageId: first.assistantMessage.id }, alice.token);
    expect(second.regenerateMessage.status).toBe("pending");
    const count = await ChatMessageModel.countDocuments({ sessionId: s });
    const third = await gql(app, Q.regenerate, { messageId: first.assistantMessage.id }, alice.token);
    expect(third.errors?.[0].extensions?.code).toBe("TOO_MANY_REQUESTS");
    expect(await ChatMessageModel.countDocuments({ sessionId: s })).toBe(count);
  });

  it("should read and branch an old session stored without parentIds", async () => {
    const s = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId;
    const uid = (await ChatSessionModel.findOne({ sessionId: s }).lean())?.userId;
    const at = (n: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, n));
    const base = { userId: uid, sessionId: s };
    await ChatMessageModel.collection.insertMany([
      { ...base, role: "user", content: "Gammelt spørgsmål", timestamp: at(1) },
      { ...base, role: "assistant", content: "Gammelt svar", status: "complete", timestamp: at(2) },
      { ...base, role: "user", content: "Andet gamle spørgsmål", timestamp: at(3) },
      { ...base, role: "assistant", content: "Andet gamle svar", status: "complete", timestamp: at(4) },
    ]);
    const old = await shown(s);
    expect(old.map((m) => m.content)).toEqual([
      "Gammelt spørgsmål",
      "Gammelt svar",
      "Andet gamle spørgsmål",
      "Andet gamle svar",
    ]);
    expect(old.every((m) => m.siblingCount === 1)).toBe(true);
    const edited = (
      await gqlOk(app, Q.edit, { messageId: old[2]?.id, content: "Hvem behandler klagen?" }, alice.token)
    ).editMessage;
    await app.services.chat.whenIdle();
    expect(edited.userMessage).toMatchObject({ parentId: old[1]?.id, siblingIndex: 2, siblingCount: 2 });
    expect(lastHistory()).toEqual([
      "user:Gammelt spørgsmål",
      "assistant:Gammelt svar",
      "user:Hvem behandler klagen?",
    ]);
    const back: Msg[] = (await gqlOk(app, Q.switchBranch, { messageId: old[2]?.id }, alice.token))
      .switchBranch;
    expect(back.map((m) => m.content)).toEqual(old.map((m) => m.content));
  });
});
