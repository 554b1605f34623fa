/**
 * The ChatService facade over a private embedded store: what it learns about users comes from the users
 * directory it is given (never from the users module's collections), and close() stops every part of it.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { formatMessage } from "@vidensbank/shared";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityModel } from "../activity/activity.model";
import { type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import type { Passage } from "./answer";
import { ChatMessageModel } from "./chat.model";
import { ChatService, type ChatUserDirectory } from "./chat.service";
import { openTestStore } from "./chat.test-helpers";

const PASSAGE: Passage = {
  articleId: "klager",
  title: "Klager over afgørelser",
  headingPath: ["Klagefrist"],
  text: "Klagefristen er fire uger fra den dag, afgørelsen er modtaget.",
  score: 0.9,
};
const retrieve = async () => [PASSAGE];

let store: Awaited<ReturnType<typeof openTestStore>>;
let fake: FakeOpenAI;
/** a user with no document in the users collection: only the directory knows them */
const alice = new mongoose.Types.ObjectId().toHexString();
const bob = new mongoose.Types.ObjectId().toHexString();
const directory: ChatUserDirectory = {
  emailOf: async (id) => (id === alice ? "alice@minksekretariatet.dk" : null),
  languageOf: async (id) => (id === alice ? "en" : "da"),
};

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: "Klagefristen er fire uger [1].", firstTokenDelayMs: 5_000 });
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
  await fake?.close();
});

const CHAT_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Every non-test source file of the chat module, with its path relative to api/src/chat. */
function chatSources(dir = CHAT_DIR): Array<{ file: string; text: string }> {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return chatSources(full);
    if (!entry.name.endsWith(".ts") || /\.test\.ts$|test-helpers\.ts$/.test(entry.name)) return [];
    return [{ file: path.relative(CHAT_DIR, full), text: fs.readFileSync(full, "utf8") }];
  });
}

describe("ChatService", () => {
  it("should not read the users module's collections or import its code (the directory is the way in)", () => {
    const sources = chatSources();
    expect(sources.map((s) => s.file)).toContain("chat.service.ts");
    // chat.store.ts opens collections by name: only the chat module's own (chat.store.integration.test.ts)
    const offending = sources
      .filter(({ file, text }) =>
        file === "chat.store.ts"
          ? /from "\.\.\/(\.\.\/)?users\//.test(text)
          : /\.collection\(|from "\.\.\/(\.\.\/)?users\//.test(text),
      )
      .map((s) => s.file);
    expect(offending).toEqual([]);
  });

  it("should log with the e-mail and answer in the language that the users directory gives", async () => {
    const chat = new ChatService({ config: store.config, retrieve, users: directory, llm: null });
    try {
      const session = await chat.createSession(alice);
      const logged = await ActivityModel.findOne({ "metadata.sessionId": session.sessionId }).lean();
      expect(logged?.userEmail).toBe("alice@minksekretariatet.dk");
      const sent = await chat.sendMessage(alice, session.sessionId, "Hvad er klagefristen?");
      await chat.whenIdle();
      const answer = await chat.getMessage(alice, sent.assistantMessage.id);
      expect(answer.status).toBe("complete");
      expect(answer.content).toContain("Found text passages – not a written answer.");
      const message = await ActivityModel.findOne({
        action: "message",
        "metadata.sessionId": session.sessionId,
      });
      expect(message?.userEmail).toBe("alice@minksekretariatet.dk");
    } finally {
      await chat.close();
    }
  });

  it("should refuse another user's session events, and stop everything at close", async () => {
    const config = { ...store.config, openaiBaseUrl: fake.baseURL };
    const chat = new ChatService({ config, retrieve, users: directory });
    expect(chat.mode).toBe("llm");
    const { sessionId } = await chat.createSession(alice);
    await expect(chat.sessionEvents(bob, sessionId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const events = await chat.sessionEvents(alice, sessionId);
    expect(chat.subscriberCount()).toBe(1);
    // the model takes 5 s for its first token: the answer is generating when the service closes
    const sent = await chat.sendMessage(alice, sessionId, "Hvad er klagefristen?");
    expect(chat.inFlightCount(alice)).toBe(1);
    await chat.close();
    expect(chat.inFlightCount()).toBe(0);
    expect((await ChatMessageModel.findById(sent.assistantMessage.id).lean())?.status).toBe("stopped");
    await expect(chat.sendMessage(alice, sessionId, "Hej igen")).rejects.toMatchObject({
      code: "INTERNAL_SERVER_ERROR",
      message: formatMessage("chat.shuttingDown"),
    });
    expect(await chat.recoverInterrupted()).toBe(0);
    await events.return?.();
    expect(chat.subscriberCount()).toBe(0);
  });
});
