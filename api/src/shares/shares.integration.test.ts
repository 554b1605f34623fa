/**
 * Shared conversations through the running server (GraphQL and REST, the embedded store, retrieval-only answers):
 * a snapshot any signed-in colleague opens read-only with its citations, never anonymous; later messages stay
 * out; revoked, deleted session and deleted owner answer NOT_FOUND; nobody changes anything through a share;
 * another user's share or session answers exactly like an unknown id; the admin lists and revokes all.
 */

import { formatMessage, type MessageKey } from "@vidensbank/shared";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "../activity/activity.service";
import { Q } from "../chat/chat.test-helpers";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../testing/client";
import { ChatShareModel } from "./share.model";
import { SHARE_MAX_PER_USER } from "./shares.limits";

const SHARE =
  "mutation($id: ID!) { shareChatSession(sessionId: $id) { id sessionId title createdAt url ownerEmail } }";
const MINE = "{ chatShares { id sessionId title url ownerEmail } }";
const OPEN = `query($id: ID!) { sharedChat(shareId: $id) { id title untitled ownerName sharedAt
  messages { id sessionId role content status feedback { rating } citations { number articleId title headingPath url passage } } } }`;
const REVOKE = "mutation($id: ID!) { revokeChatShare(shareId: $id) }";
const ADMIN_LIST = "{ adminChatShares { id sessionId title ownerEmail } }";

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let alice: User;
let bob: User;
let adminToken: string;

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([createVerifiedUser(app), createVerifiedUser(app)]);
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  await app?.services.chat.whenIdle();
  await app?.close();
});

async function ok(query: string, variables: Record<string, unknown>, token: string) {
  const res = await gql(app, query, variables, token);
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data;
}

/** A session of the user with one answered question. */
async function conversation(user: User, question = "Hvad er klagefristen?"): Promise<string> {
  const sessionId = (await ok(Q.create, {}, user.token)).createSession.sessionId;
  await ask(user, sessionId, question);
  return sessionId;
}
async function ask(user: User, sessionId: string, content: string) {
  await ok(Q.send, { sessionId, content }, user.token);
  await app.services.chat.whenIdle();
}
const codeOf = (res: { errors?: Array<{ extensions?: Record<string, unknown> }> }) =>
  res.errors?.[0]?.extensions?.code;

describe("sharing a conversation read-only", () => {
  let sessionId: string;
  let shareId: string;

  it("should give a random link that another signed-in user opens with working citations, never anonymous", async () => {
    sessionId = await conversation(alice);
    const share = (await ok(SHARE, { id: sessionId }, alice.token)).shareChatSession;
    shareId = share.id;
    expect(share.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(share).toMatchObject({ sessionId, title: "Hvad er klagefristen?", ownerEmail: null });
    expect(share.url).toBe(`${app.services.config.appUrl}/shared/${share.id}`);
    const again = (await ok(SHARE, { id: sessionId }, alice.token)).shareChatSession;
    expect(again.id).not.toBe(share.id);
    await ok(REVOKE, { id: again.id }, alice.token);

    const shared = (await ok(OPEN, { id: shareId }, bob.token)).sharedChat;
    expect(shared).toMatchObject({
      id: shareId,
      title: "Hvad er klagefristen?",
      untitled: false,
      ownerName: alice.user.name,
    });
    expect(shared.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    const answer = shared.messages[1];
    expect(answer.status).toBe("complete");
    expect(answer.sessionId).toBe(shareId); // the owner's session id is not handed out
    expect(answer.citations.length).toBeGreaterThan(0);
    const cited = answer.citations[0];
    expect(cited.title).toBeTruthy();
    expect(cited.passage).toBeTruthy();
    const article = await app.services.knowledge.peekArticle(cited.articleId);
    expect(article?.title).toBe(cited.title);

    expect(codeOf(await gql(app, OPEN, { id: shareId }))).toBe("UNAUTHENTICATED");
    const anon = await rest(app, "GET", `/api/shared/${shareId}`);
    expect(anon.status).toBe(401);
    const viaRest = await rest(app, "GET", `/api/shared/${shareId}`, { token: bob.token });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toMatchObject({ id: shareId, ownerName: alice.user.name });
    expect(viaRest.body).not.toHaveProperty("untitled"); // GraphQL only
    expect(viaRest.body.messages[1].citations[0]).toMatchObject({ articleId: cited.articleId });
  });

  it("should keep the snapshot: later messages and feedback of the owner do not appear", async () => {
    const own = (await ok(Q.messages, { sessionId }, alice.token)).messages;
    await ok(Q.feedback, { messageId: own[1].id, rating: "up" }, alice.token);
    await ask(alice, sessionId, "Hvor lang tid har jeg til at klage?");
    expect((await ok(Q.messages, { sessionId }, alice.token)).messages).toHaveLength(4);
    const shared = (await ok(OPEN, { id: shareId }, bob.token)).sharedChat;
    expect(shared.messages).toHaveLength(2);
    expect(shared.messages[1].feedback).toBeNull();
  });

  it("should let nobody change anything through a share, and treat another user's ids like unknown ones", async () => {
    const snapshot = (await ok(OPEN, { id: shareId }, bob.token)).sharedChat.messages;
    const unknownShare = "A".repeat(32);
    const attempts: Array<[string, Record<string, unknown>]> = [
      [Q.send, { sessionId: shareId, content: "Indsprøjtet" }],
      [Q.send, { sessionId, content: "Indsprøjtet" }],
      [Q.rename, { sessionId: shareId, title: "Hacket" }],
      [Q.delete, { sessionId: shareId }],
      [Q.messages, { sessionId: shareId }],
      [Q.feedback, { messageId: snapshot[1].id, rating: "down" }],
      [Q.retry, { messageId: snapshot[1].id }],
      [SHARE, { id: sessionId }],
      [SHARE, { id: shareId }],
      [REVOKE, { id: shareId }],
    ];
    for (const [query, variables] of attempts) {
      expect(codeOf(await gql(app, query, variables, bob.token)), query).toBe("NOT_FOUND");
    }
    // Bob's revoke of Alice's share reads exactly like an unknown share
    const foreign = await gql(app, REVOKE, { id: shareId }, bob.token);
    const unknown = await gql(app, REVOKE, { id: unknownShare }, bob.token);
    expect(foreign.errors?.[0]).toEqual(unknown.errors?.[0]);
    expect(foreign.errors?.[0].message).toBe("Den delte samtale findes ikke eller er ikke længere delt");
    expect((await rest(app, "DELETE", `/api/chat/shares/${shareId}`, { token: bob.token })).status).toBe(404);
    expect((await ok(MINE, {}, bob.token)).chatShares).toEqual([]);
    // nothing changed
    expect((await ok(OPEN, { id: shareId }, bob.token)).sharedChat.messages).toHaveLength(2);
    const own = (await ok(Q.messages, { sessionId }, alice.token)).messages;
    expect(own).toHaveLength(4);
    expect(own[1].feedback.rating).toBe("up");
  });

  it("should stop answering after the owner revokes it (404 over REST)", async () => {
    expect((await ok(MINE, {}, alice.token)).chatShares.map((s: { id: string }) => s.id)).toEqual([shareId]);
    expect((await ok(REVOKE, { id: shareId }, alice.token)).revokeChatShare).toBe(true);
    const res = await gql(app, OPEN, { id: shareId }, bob.token);
    expect(res.errors?.[0]).toMatchObject({
      message: "Den delte samtale findes ikke eller er ikke længere delt",
      extensions: { code: "NOT_FOUND" },
    });
    const viaRest = await rest(app, "GET", `/api/shared/${shareId}`, { token: bob.token });
    expect(viaRest.status).toBe(404);
    expect(viaRest.body).toEqual({
      message: "Den delte samtale findes ikke eller er ikke længere delt",
      code: "NOT_FOUND",
    });
    expect(codeOf(await gql(app, REVOKE, { id: shareId }, alice.token))).toBe("NOT_FOUND");
    const log = await listActivity({ search: alice.input.email });
    const actions = log.map((e) => e.action);
    expect(actions.filter((a) => a === "chat_share")).toHaveLength(2);
    expect(actions.filter((a) => a === "chat_share_revoke")).toHaveLength(2);
    expect(log.find((e) => e.action === "chat_share")?.description).toContain("delte samtalen");
  });

  it("should log sharing an untitled conversation so each reader sees their own untitled text", async () => {
    const dora = await createVerifiedUser(app);
    const untitled = await conversation(dora);
    await ok(Q.rename, { sessionId: untitled, title: "Ny chat" }, dora.token);
    const share = (await ok(SHARE, { id: untitled }, dora.token)).shareChatSession;
    expect(share.title).toBe("Ny chat"); // the stored title stays the spec's
    expect((await ok(OPEN, { id: share.id }, bob.token)).sharedChat.untitled).toBe(true);
    await ok(REVOKE, { id: share.id }, dora.token);
    const log = await listActivity({ search: dora.input.email });
    const shared = log.find((e) => e.action === "chat_share");
    const revoked = log.find((e) => e.action === "chat_share_revoke");
    expect(shared).toMatchObject({
      messageKey: "log.chatShareUntitled",
      description: `${dora.user.name} delte samtalen "Ny chat"`,
    });
    expect(revoked?.messageKey).toBe("log.chatShareRevokeUntitled");
    // what the admin's activity screen shows (by key and parameters, in the reader's language)
    const en = (e: typeof shared) => formatMessage(e?.messageKey as MessageKey, e?.messageParams ?? {}, "en");
    expect(en(shared)).toBe(`${dora.user.name} shared the conversation "New chat"`);
    expect(en(revoked)).toBe(`${dora.user.name} revoked the share of "New chat"`);
  });

  it("should delete the shares of a deleted session and of a deleted user", async () => {
    const s1 = await conversation(alice, "Hvad er klagefristen?");
    const gone = (await ok(SHARE, { id: s1 }, alice.token)).shareChatSession.id;
    await ok(Q.delete, { sessionId: s1 }, alice.token);
    expect(codeOf(await gql(app, OPEN, { id: gone }, bob.token))).toBe("NOT_FOUND");
    expect(await ChatShareModel.countDocuments({ sessionId: s1 })).toBe(0);

    const carol = await createVerifiedUser(app);
    const s2 = await conversation(carol);
    const carols = (await ok(SHARE, { id: s2 }, carol.token)).shareChatSession.id;
    expect((await ok(OPEN, { id: carols }, bob.token)).sharedChat.ownerName).toBe(carol.user.name);
    expect(
      (await rest(app, "DELETE", `/api/admin/users/${carol.user.id}`, { token: adminToken })).status,
    ).toBe(200);
    expect(codeOf(await gql(app, OPEN, { id: carols }, bob.token))).toBe("NOT_FOUND");
    expect(await ChatShareModel.countDocuments({ userId: new mongoose.Types.ObjectId(carol.user.id) })).toBe(
      0,
    );
  });

  it("should refuse an empty conversation, and more than the maximum of shares", async () => {
    const empty = (await ok(Q.create, {}, bob.token)).createSession.sessionId;
    const res = await gql(app, SHARE, { id: empty }, bob.token);
    expect(codeOf(res)).toBe("BAD_USER_INPUT");
    const s = await conversation(bob);
    const userId = new mongoose.Types.ObjectId(bob.user.id);
    await ChatShareModel.insertMany(
      Array.from({ length: SHARE_MAX_PER_USER }, (_, i) => ({
        shareId: `fyld${String(i).padStart(28, "0")}`,
        userId,
        sessionId: s,
        title: "x",
        createdAt: new Date(),
      })),
    );
    const full = await gql(app, SHARE, { id: s }, bob.token);
    expect(full.errors?.[0]).toMatchObject({
      message: `Du kan højst have ${SHARE_MAX_PER_USER} delte samtaler. Tilbagekald en deling, og prøv igen.`,
      extensions: { code: "CONFLICT" },
    });
    await ChatShareModel.deleteMany({ userId });
  });
});

describe("shares over REST and for the admin", () => {
  it("should share (201), list and revoke over REST, with 4xx for bad ids", async () => {
    const sessionId = await conversation(bob);
    const created = await rest(app, "POST", `/api/chat/sessions/${sessionId}/share`, { token: bob.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sessionId, url: expect.stringContaining("/shared/") });
    const list = await rest(app, "GET", "/api/chat/shares", { token: bob.token });
    expect(list.body.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    for (const bad of ["%24ne", "x", "0".repeat(200)]) {
      expect((await rest(app, "GET", `/api/shared/${bad}`, { token: alice.token })).status, bad).toBe(404);
      expect((await rest(app, "POST", `/api/chat/sessions/${bad}/share`, { token: bob.token })).status).toBe(
        404,
      );
    }
    expect(
      (await rest(app, "POST", `/api/chat/sessions/${sessionId}/share`, { token: alice.token })).status,
    ).toBe(404);
    expect((await rest(app, "POST", `/api/chat/sessions/${sessionId}/share`)).status).toBe(401);
    const del = await rest(app, "DELETE", `/api/chat/shares/${created.body.id}`, { token: bob.token });
    expect(del).toMatchObject({ status: 200, body: { ok: true } });
    expect((await rest(app, "GET", "/api/chat/shares", { token: bob.token })).body).toEqual([]);
  });

  it("should let the admin list every share with its owner's e-mail and revoke any", async () => {
    const sessionId = await conversation(alice);
    const share = (await ok(SHARE, { id: sessionId }, alice.token)).shareChatSession;
    expect(codeOf(await gql(app, ADMIN_LIST, {}, bob.token))).toBe("FORBIDDEN");
    expect((await rest(app, "GET", "/api/admin/chat-shares", { token: bob.token })).status).toBe(403);
    const listed = (await ok(ADMIN_LIST, {}, adminToken)).adminChatShares;
    expect(listed.find((s: { id: string }) => s.id === share.id)).toMatchObject({
      sessionId,
      ownerEmail: alice.input.email,
    });
    const viaRest = await rest(app, "GET", "/api/admin/chat-shares", { token: adminToken });
    expect(viaRest.body.find((s: { id: string }) => s.id === share.id).ownerEmail).toBe(alice.input.email);
    expect((await ok(REVOKE, { id: share.id }, adminToken)).revokeChatShare).toBe(true);
    expect(codeOf(await gql(app, OPEN, { id: share.id }, bob.token))).toBe("NOT_FOUND");
    const log = await listActivity({ action: "chat_share_revoke", search: app.admin.email });
    expect(log[0].metadata).toMatchObject({ shareId: share.id, ownerId: alice.user.id });
  });
});
