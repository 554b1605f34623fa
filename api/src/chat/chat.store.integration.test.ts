/**
 * The send path's driver collections (chat.store.ts): made once per connection, reading and writing what the
 * mongoose models see, and made again for a new connection (a kept one would talk to the closed client).
 */
import mongoose from "mongoose";
import { afterAll, describe, expect, it } from "vitest";
import { ChatSessionModel } from "./chat.model";
import { modelCollection, storeCollection } from "./chat.store";
import { openTestStore } from "./chat.test-helpers";

let store: Awaited<ReturnType<typeof openTestStore>> | null = null;

afterAll(async () => {
  await store?.close();
});

describe("storeCollection", () => {
  it("gives one driver collection per name and connection, the models' own, again after a reconnect", async () => {
    store = await openTestStore();
    const first = modelCollection(ChatSessionModel);
    expect(storeCollection(ChatSessionModel.collection.collectionName)).toBe(first);
    const userId = new mongoose.Types.ObjectId();
    await first.insertOne({ userId, sessionId: "s-1", title: "Ny samtale" });
    expect(await ChatSessionModel.findOne({ userId }).lean()).toMatchObject({ sessionId: "s-1" });

    await store.close();
    store = await openTestStore();
    const second = modelCollection(ChatSessionModel);
    expect(second).not.toBe(first);
    // the new store is empty; the first collection's client is closed
    expect(await second.countDocuments({ userId })).toBe(0);
    await second.insertOne({ userId, sessionId: "s-2", title: "Ny samtale" });
    expect(await ChatSessionModel.countDocuments({ userId })).toBe(1);
  });

  it("opens only the chat module's own collections", () => {
    expect(storeCollection("chat_answer_slots").collectionName).toBe("chat_answer_slots");
    for (const name of ["users", "sessions", "user_preferences", "chat_sessions.x", "xchat_messages"])
      expect(() => storeCollection(name)).toThrow("not a chat collection");
  });
});
