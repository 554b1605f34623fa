/**
 * The store-backed bus over the embedded store (a single-member replica set), two buses standing for two
 * processes: events cross in order, are batched, are not echoed.
 */
import { startEmbeddedStore } from "@vidensbank/embedded-mongo";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../chat/chat.events";
import type { ChatMessageEventPayload } from "../chat/chat.events";
import { storeHasChangeStreams } from "./change-feed";
import { createStoreBus, EVENTS_COLLECTION } from "./store-bus";

let store: Awaited<ReturnType<typeof startEmbeddedStore>>;

beforeAll(async () => {
  store = await startEmbeddedStore({ memory: true });
  await mongoose.connect(store.uri, { dbName: "bus" });
});

afterAll(async () => {
  await mongoose.disconnect();
  await store.close();
});

function delta(messageId: string, text: string): ChatMessageEventPayload {
  return { type: "DELTA", sessionId: "s1", userId: "u1", messageId, delta: text, message: null };
}

async function take<T>(it: AsyncIterator<T>, n: number, timeoutMs = 3_000): Promise<T[]> {
  const out: T[] = [];
  const deadline = Date.now() + timeoutMs;
  while (out.length < n) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const r = await Promise.race([it.next(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
    if (!r || r.done) break;
    out.push(r.value);
  }
  return out;
}

describe("store bus", () => {
  it("the store advertises change streams", async () => {
    expect(await storeHasChangeStreams()).toBe(true);
  });

  it("delivers another origin's events in order, batched, once, and not back to the publisher", async () => {
    const a = createStoreBus({ origin: "A" });
    const b = createStoreBus({ origin: "B" });
    try {
      await Promise.all([a.ready, b.ready]);
      const onA = a.subscribe("CHAT_MESSAGE_EVENT");
      const onB = b.subscribe("CHAT_MESSAGE_EVENT");
      const tokens = Array.from({ length: 200 }, (_, i) => `t${i} `);
      for (const t of tokens) a.publish("CHAT_MESSAGE_EVENT", delta("m1", t));
      const gotA = await take(onA, 200);
      expect(gotA.map((e) => e.delta)).toEqual(tokens); // in-process at once
      const gotB = await take(onB, 200);
      expect(gotB.map((e) => e.delta)).toEqual(tokens);
      // nothing more arrives on either side (no echo, no duplicate)
      expect(await take(onA, 1, 300)).toEqual([]);
      expect(await take(onB, 1, 300)).toEqual([]);
      // one write, not one per token
      expect(a.stats().written).toBe(200);
      expect(a.stats().documents).toBeLessThanOrEqual(2);
      expect(b.stats().received).toBe(200);
      await onA.return?.();
      await onB.return?.();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("sends the first event after a quiet window at once, and batches those that follow it", async () => {
    const a = createStoreBus({ origin: "A", flushMs: 2_000 });
    const b = createStoreBus({ origin: "B" });
    try {
      await Promise.all([a.ready, b.ready]);
      const onB = b.subscribe("CHAT_MESSAGE_EVENT");
      const t0 = Date.now();
      a.publish("CHAT_MESSAGE_EVENT", delta("m2", "first "));
      expect((await take(onB, 1)).map((e) => e.delta)).toEqual(["first "]);
      expect(Date.now() - t0).toBeLessThan(1_500); // not after the 2 s window
      // within the window: written together when it ends
      a.publish("CHAT_MESSAGE_EVENT", delta("m2", "second "));
      a.publish("CHAT_MESSAGE_EVENT", delta("m2", "third"));
      expect((await take(onB, 2)).map((e) => e.delta)).toEqual(["second ", "third"]);
      // (A counts a write when the store has answered it, which may come after B got it)
      for (let i = 0; i < 100 && a.stats().documents < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(a.stats().documents).toBe(2);
      await onB.return?.();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("bounds the events collection with a TTL index", async () => {
    const indexes = await mongoose.connection.db!.collection(EVENTS_COLLECTION).indexes();
    expect(indexes.some((i) => i.key.t === 1 && typeof i.expireAfterSeconds === "number")).toBe(true);
  });
});
