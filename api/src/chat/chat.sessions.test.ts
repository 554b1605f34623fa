import { formatMessage } from "@vidensbank/shared";
/**
 * ChatSessions over a private embedded store: session CRUD, ownership (another user's session or message is
 * NOT_FOUND, like an unknown one), search and the REST view of unfinished answers.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityModel } from "../activity/activity.model";
import { TAG_BREAK } from "../markdown/sanitize";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { ownMessage, ownSession } from "./chat.ownership";
import { ChatSessions } from "./chat.sessions";
import { codeOf, openTestStore } from "./chat.test-helpers";

let store: Awaited<ReturnType<typeof openTestStore>>;
const alice = new mongoose.Types.ObjectId().toHexString();
const bob = new mongoose.Types.ObjectId().toHexString();
/** sessions whose answers were stopped, with how many messages they still had then */
const stopped: Array<{ sessionId: string; messagesLeft: number }> = [];
const sessions = new ChatSessions({
  emailOf: async (userId) => (userId === alice ? "alice@minksekretariatet.dk" : null),
  stopAnswersIn: async (sessionId) => {
    stopped.push({ sessionId, messagesLeft: await ChatMessageModel.countDocuments({ sessionId }) });
  },
});

beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

/** A question and its answer (in the given state) stored in the session. */
async function exchange(userId: string, sessionId: string, question: string, status = "complete") {
  const at = new Date();
  const [q, a] = await ChatMessageModel.insertMany([
    { userId, sessionId, role: "user", content: question, timestamp: at },
    {
      userId,
      sessionId,
      role: "assistant",
      content: status === "complete" ? `Svar på: ${question}` : "",
      timestamp: new Date(at.getTime() + 1),
      status,
    },
  ]);
  return { question: String(q._id), answer: String(a._id) };
}

describe("ChatSessions", () => {
  it("should create 'Ny chat' (untitled) or the given title (chosen), and log it with the user's e-mail", async () => {
    const plain = await sessions.createSession(alice);
    expect(plain.title).toBe("Ny chat");
    expect((await ChatSessionModel.findOne({ sessionId: plain.sessionId }).lean())?.titled).toBe(false);
    const named = await sessions.createSession(alice, "  Ferie  regler ");
    expect(named.title).toBe("Ferie regler");
    expect((await ChatSessionModel.findOne({ sessionId: named.sessionId }).lean())?.titled).toBe(true);
    // the default title given explicitly does not count as chosen: the first question still names it
    const asDefault = await sessions.createSession(alice, "Ny chat");
    expect((await ChatSessionModel.findOne({ sessionId: asDefault.sessionId }).lean())?.titled).toBe(false);

    const logged = await ActivityModel.findOne({ "metadata.sessionId": plain.sessionId }).lean();
    expect(String(logged?.userId)).toBe(alice);
    expect(logged).toMatchObject({
      action: "chat",
      userEmail: "alice@minksekretariatet.dk",
      description: "Bruger startede en ny chat",
    });
  });

  it("should find a session still untitled by the words it is shown with, in either language", async () => {
    const carol = String(new mongoose.Types.ObjectId());
    const untitled = await sessions.createSession(carol);
    const named = await sessions.createSession(carol, "Ferie");
    const found = async (q: string) => (await sessions.searchSessions(carol, q)).map((s) => s.sessionId);
    expect(await found("new chat")).toEqual([untitled.sessionId]);
    expect(await found("NEW")).toEqual([untitled.sessionId]);
    expect(await found("ny chat")).toEqual([untitled.sessionId]);
    expect(await found("new chat om ferie")).toEqual([]);
    expect(await found("ferie")).toEqual([named.sessionId]);
  });

  it("should list only the user's own sessions, most recently used first", async () => {
    const older = await sessions.createSession(bob, "Ældre");
    await new Promise((r) => setTimeout(r, 5));
    const newer = await sessions.createSession(bob, "Nyere");
    const list = await sessions.listSessions(bob);
    expect(list.map((s) => s.sessionId)).toEqual([newer.sessionId, older.sessionId]);
    expect((await sessions.listSessions(alice)).map((s) => s.sessionId)).not.toContain(older.sessionId);
  });

  it("should answer NOT_FOUND for another user's session or message, exactly as for an unknown one", async () => {
    const own = await sessions.createSession(alice, "Privat");
    const { answer } = await exchange(alice, own.sessionId, "Hemmeligt spørgsmål");
    for (const sessionId of [own.sessionId, "no-such-session", "", "x".repeat(101)]) {
      expect(await codeOf(sessions.getSession(bob, sessionId))).toBe("NOT_FOUND");
      expect(await codeOf(sessions.listMessages(bob, sessionId))).toBe("NOT_FOUND");
      expect(await codeOf(sessions.renameSession(bob, sessionId, "Min nu"))).toBe("NOT_FOUND");
      expect(await codeOf(sessions.deleteSession(bob, sessionId))).toBe("NOT_FOUND");
      expect(await codeOf(sessions.exportSession(bob, sessionId))).toBe("NOT_FOUND");
    }
    for (const messageId of [answer, new mongoose.Types.ObjectId().toHexString(), "not-an-id"]) {
      expect(await codeOf(sessions.getMessage(bob, messageId))).toBe("NOT_FOUND");
    }
    // nothing of it changed
    expect((await sessions.getSession(alice, own.sessionId)).title).toBe("Privat");
    expect(await sessions.listMessages(alice, own.sessionId)).toHaveLength(2);
    expect((await sessions.getMessage(alice, answer)).id).toBe(answer);
    // a user id that is not an id is not a signed-in user
    expect(await codeOf(sessions.listSessions("nobody"))).toBe("UNAUTHENTICATED");
  });

  it("should give ownSession the session as it was before touching it, and mark it used", async () => {
    const s = await sessions.createSession(alice);
    const touch = new Date(Date.now() + 60_000);
    const before = await ownSession(alice, s.sessionId, { touch });
    expect(before.hasMessages).toBe(false);
    const after = await ChatSessionModel.findOne({ sessionId: s.sessionId }).lean();
    expect(after).toMatchObject({ hasMessages: true, lastUpdated: touch });
    expect(await codeOf(ownSession(bob, s.sessionId, { touch }))).toBe("NOT_FOUND");
    expect((await ChatSessionModel.findOne({ sessionId: s.sessionId }).lean())?.lastUpdated).toEqual(touch);
    const { question } = await exchange(alice, s.sessionId, "Hvem ejer mig?");
    expect(String((await ownMessage(alice, question)).userId)).toBe(alice);
  });

  it("should rename a session (trimmed, 1–60 characters) and refuse empty or long titles", async () => {
    const s = await sessions.createSession(alice);
    expect((await sessions.renameSession(alice, s.sessionId, "  Ny   titel ")).title).toBe("Ny titel");
    expect(await codeOf(sessions.renameSession(alice, s.sessionId, "   "))).toBe("BAD_USER_INPUT");
    expect(await codeOf(sessions.renameSession(alice, s.sessionId, "x".repeat(61)))).toBe("BAD_USER_INPUT");
    expect((await sessions.getSession(alice, s.sessionId)).title).toBe("Ny titel");
  });

  it("should stop a session's answers before deleting it with its messages", async () => {
    const s = await sessions.createSession(alice);
    await exchange(alice, s.sessionId, "Slet mig", "streaming");
    await sessions.deleteSession(alice, s.sessionId);
    // the answers were stopped while the messages were still there
    expect(stopped).toContainEqual({ sessionId: s.sessionId, messagesLeft: 2 });
    expect(await ChatMessageModel.countDocuments({ sessionId: s.sessionId })).toBe(0);
    expect(await codeOf(sessions.getSession(alice, s.sessionId))).toBe("NOT_FOUND");
  });

  it("should search titles and messages literally and case-insensitively, in the user's sessions only", async () => {
    const byTitle = await sessions.createSession(alice, "Databrud i marts");
    const byMessage = await sessions.createSession(alice, "Andet");
    await exchange(alice, byMessage.sessionId, "Hvad gør vi ved et DATABRUD?");
    const bobs = await sessions.createSession(bob, "Databrud hos Bob");
    const found = (await sessions.searchSessions(alice, "  databrud ")).map((s) => s.sessionId);
    expect(found).toEqual(expect.arrayContaining([byTitle.sessionId, byMessage.sessionId]));
    expect(found).not.toContain(bobs.sessionId);
    // a pattern is searched for as text: '.*' matches no session
    expect(await sessions.searchSessions(alice, ".*")).toEqual([]);
    // an empty search lists every session
    expect(await sessions.searchSessions(alice, "  ")).toHaveLength(
      (await sessions.listSessions(alice)).length,
    );
    const tooLong = sessions.searchSessions(alice, "a".repeat(201));
    await expect(tooLong).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      message: formatMessage("chat.searchTooLong"),
    });
  });

  it("should leave unfinished answers out of the REST view of a session's messages", async () => {
    const s = await sessions.createSession(alice);
    await exchange(alice, s.sessionId, "Færdig?", "complete");
    await new Promise((r) => setTimeout(r, 5));
    await exchange(alice, s.sessionId, "Undervejs?", "streaming");
    const all = await sessions.listMessages(alice, s.sessionId);
    expect(all.map((m) => m.status)).toEqual([null, "complete", null, "streaming"]);
    const rest = await sessions.listMessages(alice, s.sessionId, { includeInProgress: false });
    expect(rest.map((m) => m.content)).toEqual(["Færdig?", "Svar på: Færdig?", "Undervejs?"]);
  });

  it("should export the session as Markdown", async () => {
    const s = await sessions.createSession(alice, "Eksport");
    await exchange(alice, s.sessionId, "Hvad er <b>fed</b>?");
    const md = await sessions.exportSession(alice, s.sessionId);
    expect(md).toMatch(/^# Eksport\n/);
    expect(md).toContain("> Hvad er \\<b\\>fed\\</b\\>?");
    // an answer stored with HTML (written straight to the store here) is exported with its tags escaped
    expect(md).toContain(`Svar på: Hvad er <${TAG_BREAK}b>fed<${TAG_BREAK}/b>?`);
  });
});
