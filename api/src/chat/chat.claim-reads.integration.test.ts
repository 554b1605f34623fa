/**
 * A send's session touch (ownSession with `touch`) and history read (loadHistoryTree) go through the driver:
 * they store and read what the mongoose queries did, refuse another user's session, and take no operator for a
 * session id (mongoose's cast did that before).
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadHistoryTree } from "./chat.history";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { ownSession } from "./chat.ownership";
import { openTestStore } from "./chat.test-helpers";
import { newTurn } from "./chat.turn";

let store: Awaited<ReturnType<typeof openTestStore>>;

beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

async function sessionWithTurn(sessionId: string) {
  const userId = new mongoose.Types.ObjectId();
  const created = new Date("2026-11-27T08:00:00.000Z");
  await ChatSessionModel.create({ userId, sessionId, createdAt: created, lastUpdated: created });
  const { question, answer } = newTurn({
    userId,
    sessionId,
    content: "Hvad er fristen?",
    now: created,
    mode: "llm",
    worker: "w-1",
  });
  await ChatMessageModel.collection.insertMany([question, answer]);
  return { userId: String(userId), created, question, answer };
}

describe("a send's first reads through the driver", () => {
  it("touches the user's session with stored types and returns it as it was before", async () => {
    const { userId, created } = await sessionWithTurn("claim-touch");
    const touch = new Date("2026-11-27T09:00:00.000Z");
    const leaf = new mongoose.Types.ObjectId();
    const before = await ownSession(userId, "claim-touch", { touch, leaf });
    expect(before.lastUpdated).toEqual(created);
    expect(before.activeLeafId ?? null).toBeNull();
    const after = await ChatSessionModel.collection.findOne({ sessionId: "claim-touch" });
    expect(after?.lastUpdated).toBeInstanceOf(Date);
    expect(after?.lastUpdated).toEqual(touch);
    expect(after?.hasMessages).toBe(true);
    expect(after?.activeLeafId).toBeInstanceOf(mongoose.Types.ObjectId);
    expect(String(after?.activeLeafId)).toBe(String(leaf));
    // read back through mongoose as every other reader does
    const viaModel = await ChatSessionModel.findOne({ sessionId: "claim-touch" }).lean();
    expect(String(viaModel?.activeLeafId)).toBe(String(leaf));
  });

  it("refuses another user's session without touching it", async () => {
    const { created } = await sessionWithTurn("claim-other");
    const stranger = new mongoose.Types.ObjectId().toHexString();
    await expect(
      ownSession(stranger, "claim-other", { touch: new Date(), leaf: new mongoose.Types.ObjectId() }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const doc = await ChatSessionModel.collection.findOne({ sessionId: "claim-other" });
    expect(doc?.lastUpdated).toEqual(created);
  });

  it("reads the owner's history with only the fields it needs, and nothing for an operator as session id", async () => {
    const { userId, question, answer } = await sessionWithTurn("claim-history");
    const tree = await loadHistoryTree("claim-history", userId);
    expect(tree.size).toBe(2);
    expect(tree.has(String(question._id))).toBe(true);
    expect(tree.has(String(answer._id))).toBe(true);
    // another user reads nothing of it
    expect((await loadHistoryTree("claim-history", new mongoose.Types.ObjectId().toHexString())).size).toBe(
      0,
    );
    // the user has messages, but an operator in place of the session id matches none of them
    const injected = { $ne: "x" } as unknown as string;
    expect((await loadHistoryTree(injected, userId)).size).toBe(0);
  });
});
