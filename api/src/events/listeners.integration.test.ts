/**
 * Scoped topics of the store bus over the embedded store, two buses standing for two processes: a chat
 * session's answer events are written for the other process only while it listens to that session, a listener
 * appearing mid-answer gets the whole answer in order (the catch-up), and an expired listener stops the writes.
 */
import { startEmbeddedStore } from "@vidensbank/embedded-mongo";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followForCatchUp } from "../chat/chat.catch-up";
import { CHAT_EVENT_SCOPES, type ChatMessageEventPayload } from "../chat/chat.events";
import type { ChatMessageView } from "../chat/chat.presenter";
import { createStoreBus, type StoreBus } from "./store-bus";

let store: Awaited<ReturnType<typeof startEmbeddedStore>>;

beforeAll(async () => {
  store = await startEmbeddedStore({ memory: true });
  await mongoose.connect(store.uri, { dbName: "listeners" });
});

afterAll(async () => {
  await mongoose.disconnect();
  await store.close();
});

const TOPIC = "CHAT_MESSAGE_EVENT";

function event(
  type: ChatMessageEventPayload["type"],
  sessionId: string,
  messageId: string,
  delta: string | null = null,
): ChatMessageEventPayload {
  const message =
    type === "DELTA"
      ? null
      : ({ id: messageId, sessionId, content: "", status: type } as unknown as ChatMessageView);
  return { type, sessionId, userId: "u1", messageId, delta, message };
}

/** the next events of `it` until `done` says stop, or nothing comes for timeoutMs */
async function collect<T>(
  it: AsyncIterator<T>,
  done: (got: T[]) => boolean,
  timeoutMs = 3_000,
): Promise<T[]> {
  const out: T[] = [];
  while (!done(out)) {
    const r = await Promise.race([it.next(), new Promise<null>((r) => setTimeout(() => r(null), timeoutMs))]);
    if (!r || r.done) break;
    out.push(r.value);
  }
  return out;
}

async function until(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function pair(opts: { listenerTtlMs?: number; listenerRenewMs?: number } = {}): [StoreBus, StoreBus] {
  return [
    createStoreBus({ origin: "A", scoped: CHAT_EVENT_SCOPES, ...opts }),
    createStoreBus({ origin: "B", scoped: CHAT_EVENT_SCOPES, ...opts }),
  ];
}

describe("store bus, scoped topics", () => {
  it("writes no answer event of a session no other process listens to, and every one once one does", async () => {
    const [a, b] = pair();
    try {
      await Promise.all([a.ready, b.ready]);
      const onB = b.subscribe(TOPIC);
      a.publish(TOPIC, event("CREATED", "quiet", "m1"));
      a.publish(TOPIC, event("DELTA", "quiet", "m1", "ingen lytter"));
      // an unscoped topic is always written
      a.publish("PREFERENCES_CHANGED", { userId: "u1" } as never);
      await until(() => b.stats().received === 1);
      expect(a.stats().written).toBe(1);

      const release = b.listen?.(TOPIC, "heard");
      await until(() => a.listenedElsewhere(TOPIC, "heard"));
      expect(a.listenedElsewhere(TOPIC, "quiet")).toBe(false);
      a.publish(TOPIC, event("CREATED", "heard", "m2"));
      a.publish(TOPIC, event("DELTA", "heard", "m2", "hørt"));
      a.publish(TOPIC, event("DELTA", "quiet", "m1", " stadig ingen"));
      const got = await collect(onB, (g) => g.length >= 2);
      expect(got.map((e) => [e.sessionId, e.type, e.delta])).toEqual([
        ["heard", "CREATED", null],
        ["heard", "DELTA", "hørt"],
      ]);
      // the listener leaves: the session is quiet again
      release?.();
      await until(() => !a.listenedElsewhere(TOPIC, "heard"));
      const written = a.stats().written;
      a.publish(TOPIC, event("DELTA", "heard", "m2", " efter"));
      await new Promise((r) => setTimeout(r, 200));
      expect(a.stats().written).toBe(written);
      await onB.return?.();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a listener appearing mid-answer gets the whole answer in order (the answer so far, then the rest)", async () => {
    const [a, b] = pair();
    const followed = followForCatchUp(a);
    try {
      await Promise.all([a.ready, b.ready]);
      const tokens = Array.from({ length: 60 }, (_, i) => `t${i} `);
      followed.events.publish(TOPIC, event("CREATED", "s1", "m1"));
      for (const t of tokens.slice(0, 20)) followed.events.publish(TOPIC, event("DELTA", "s1", "m1", t));
      // another session's answer under way and one ended: neither is sent to a listener of s1
      followed.events.publish(TOPIC, event("CREATED", "s2", "m2"));
      followed.events.publish(TOPIC, event("DELTA", "s2", "m2", "andet"));
      expect(a.stats().written).toBe(0);

      const onB = b.subscribe(TOPIC);
      const release = b.listen?.(TOPIC, "s1");
      // A keeps streaming while B's announcement travels
      let i = 20;
      const streaming = setInterval(() => {
        if (i < tokens.length) followed.events.publish(TOPIC, event("DELTA", "s1", "m1", tokens[i++] ?? ""));
      }, 2);
      await until(() => i >= tokens.length, 5_000);
      clearInterval(streaming);
      followed.events.publish(TOPIC, event("COMPLETED", "s1", "m1"));

      const got = await collect(onB, (g) => g.some((e) => e.type === "COMPLETED"));
      expect(got.every((e) => e.sessionId === "s1")).toBe(true);
      expect(got[0]?.type).toBe("CREATED");
      expect(got.at(-1)?.type).toBe("COMPLETED");
      const text = got
        .filter((e) => e.type === "DELTA")
        .map((e) => e.delta)
        .join("");
      expect(text).toBe(tokens.join(""));
      release?.();
      await onB.return?.();
    } finally {
      followed.stop();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a listener that ended within the catch-up window gets the answer's outcome", async () => {
    const [a, b] = pair();
    const followed = followForCatchUp(a);
    try {
      await Promise.all([a.ready, b.ready]);
      followed.events.publish(TOPIC, event("CREATED", "s3", "m3"));
      followed.events.publish(TOPIC, event("DELTA", "s3", "m3", "hele svaret"));
      followed.events.publish(TOPIC, event("COMPLETED", "s3", "m3"));
      const onB = b.subscribe(TOPIC);
      b.listen?.(TOPIC, "s3");
      const got = await collect(onB, (g) => g.length >= 1);
      expect(got.map((e) => [e.messageId, e.type])).toEqual([["m3", "COMPLETED"]]);
      await onB.return?.();
    } finally {
      followed.stop();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a listener that expires (its process stopped renewing) stops the writes; a process started later learns of a live one", async () => {
    const [a, b] = pair({ listenerTtlMs: 1_000, listenerRenewMs: 60_000 });
    let c: StoreBus | null = null;
    try {
      await Promise.all([a.ready, b.ready]);
      b.listen?.(TOPIC, "s4");
      await until(() => a.listenedElsewhere(TOPIC, "s4"));
      a.publish(TOPIC, event("CREATED", "s4", "m4"));
      await until(() => a.stats().written === 1);
      // a process started now reads the announcement from the store
      c = createStoreBus({ origin: "C", scoped: CHAT_EVENT_SCOPES });
      await c.ready;
      expect(c.listenedElsewhere(TOPIC, "s4")).toBe(true);
      // B does not renew (as a crashed process): once its announcement expires, A writes nothing more for s4
      await until(() => !a.listenedElsewhere(TOPIC, "s4"), 5_000);
      a.publish(TOPIC, event("DELTA", "s4", "m4", "ingen lytter mere"));
      await new Promise((r) => setTimeout(r, 200));
      expect(a.stats().written).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close(), c?.close()]);
    }
  });
});
