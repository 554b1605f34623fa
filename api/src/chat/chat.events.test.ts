/**
 * publishWhenStored: an answer's events wait for its message's insert, and die with it.
 * deltaBatcher / SessionEventHub: tokens that arrive together, or wait for a busy subscriber, travel as one DELTA.
 */
import { describe, expect, it } from "vitest";
import { createInProcessBus } from "../events/in-process";
import {
  type ChatMessageEventPayload,
  deltaBatcher,
  MERGED_DELTA_MAX,
  publishWhenStored,
  SessionEventHub,
} from "./chat.events";

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (err: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("publishWhenStored", () => {
  it("holds events until the message is stored, then publishes them in order", async () => {
    const stored = deferred();
    const out: string[] = [];
    const publish = publishWhenStored(stored.promise, () => out.push("failed"));
    publish(() => out.push("CREATED"));
    publish(() => out.push("DELTA 1"));
    expect(out).toEqual([]);
    stored.resolve();
    await stored.promise;
    publish(() => out.push("DELTA 2"));
    expect(out).toEqual(["CREATED", "DELTA 1", "DELTA 2"]);
  });

  it("drops the held events and every later one when the insert fails", async () => {
    const stored = deferred();
    const out: string[] = [];
    const publish = publishWhenStored(stored.promise, () => out.push("failed"));
    publish(() => out.push("CREATED"));
    stored.reject(new Error("duplicate key"));
    await stored.promise.catch(() => undefined);
    publish(() => out.push("DELTA"));
    expect(out).toEqual(["failed"]);
  });

  it("publishes at once without a pending insert", () => {
    const out: string[] = [];
    publishWhenStored(undefined, () => undefined)(() => out.push("DELTA"));
    expect(out).toEqual(["DELTA"]);
  });
});

describe("deltaBatcher", () => {
  it("publishes the tokens of one turn as one increment, and tokens of later turns one by one", async () => {
    const out: string[] = [];
    const deltas = deltaBatcher((d) => out.push(d));
    deltas.add("Kla");
    deltas.add("gef");
    deltas.add("ris");
    expect(out).toEqual([]); // not before the turn's work is done
    await new Promise((r) => setImmediate(r));
    expect(out).toEqual(["Klagefris"]);
    for (const token of ["ten ", "er ", "fire"]) {
      deltas.add(token);
      await new Promise((r) => setImmediate(r));
    }
    expect(out).toEqual(["Klagefris", "ten ", "er ", "fire"]);
  });

  it("flushes what waits at once (before the outcome event), and publishes nothing twice", async () => {
    const out: string[] = [];
    const deltas = deltaBatcher((d) => out.push(d));
    deltas.add("uger");
    deltas.add("");
    deltas.flush();
    expect(out).toEqual(["uger"]);
    await new Promise((r) => setImmediate(r));
    deltas.flush();
    expect(out).toEqual(["uger"]);
  });
});

describe("SessionEventHub", () => {
  const event = (
    type: ChatMessageEventPayload["type"],
    messageId: string,
    delta: string | null = null,
  ): ChatMessageEventPayload => ({ type, sessionId: "s1", userId: "u1", messageId, delta, message: null });

  it("hands a subscriber that keeps up every DELTA as published", async () => {
    const bus = createInProcessBus();
    const hub = new SessionEventHub(() => bus.subscribe("CHAT_MESSAGE_EVENT"));
    const events = hub.events("s1", "u1");
    const got: Array<string | null> = [];
    for (const token of ["a", "b", "c"]) {
      const next = events.next();
      bus.publish("CHAT_MESSAGE_EVENT", event("DELTA", "m1", token));
      got.push(((await next).value as ChatMessageEventPayload).delta);
    }
    expect(got).toEqual(["a", "b", "c"]);
    await hub.close();
  });

  it("merges the DELTAs waiting for a busy subscriber, per message and in order", async () => {
    const bus = createInProcessBus();
    const hub = new SessionEventHub(() => bus.subscribe("CHAT_MESSAGE_EVENT"));
    const busy = hub.events("s1", "u1");
    const other = hub.events("s1", "u1");
    const published = [
      event("CREATED", "m1"),
      event("DELTA", "m1", "Kla"),
      event("DELTA", "m1", "gef"),
      event("DELTA", "m2", "ja"),
      event("DELTA", "m1", "rist"),
      event("DELTA", "m1", "en"),
      event("COMPLETED", "m1"),
      event("DELTA", "m1", "sent"),
    ];
    for (const e of published) bus.publish("CHAT_MESSAGE_EVENT", e);
    await new Promise((r) => setImmediate(r)); // through the hub's own subscription
    const drain = async (it: AsyncIterator<ChatMessageEventPayload>, n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const e = (await it.next()).value as ChatMessageEventPayload;
        out.push(`${e.type} ${e.messageId}${e.delta === null ? "" : ` ${e.delta}`}`);
      }
      return out;
    };
    expect(await drain(busy, 6)).toEqual([
      "CREATED m1",
      "DELTA m1 Klagef",
      "DELTA m2 ja",
      "DELTA m1 risten",
      "COMPLETED m1",
      "DELTA m1 sent",
    ]);
    // the published objects are shared by the subscribers: merging one queue left them as they were
    expect(published[1].delta).toBe("Kla");
    expect((await drain(other, 2))[1]).toBe("DELTA m1 Klagef");
    await hub.close();
  });

  it("starts a new DELTA once a merged one would exceed MERGED_DELTA_MAX characters", async () => {
    const bus = createInProcessBus();
    const hub = new SessionEventHub(() => bus.subscribe("CHAT_MESSAGE_EVENT"));
    const events = hub.events("s1", "u1");
    const piece = "x".repeat(MERGED_DELTA_MAX / 2);
    for (let i = 0; i < 3; i++) bus.publish("CHAT_MESSAGE_EVENT", event("DELTA", "m1", piece));
    await new Promise((r) => setImmediate(r));
    const first = (await events.next()).value as ChatMessageEventPayload;
    const second = (await events.next()).value as ChatMessageEventPayload;
    expect([first.delta?.length, second.delta?.length]).toEqual([MERGED_DELTA_MAX, MERGED_DELTA_MAX / 2]);
    await hub.close();
  });
});
