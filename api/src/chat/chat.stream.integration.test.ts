/**
 * What a subscriber's websocket carries while an answer streams (the whole server, a real graphql-ws client):
 * one frame per DELTA as published when the server keeps up and they come apart; a message's DELTAs that come
 * within the DELTA pace of the last one sent (chat.pace.ts: 16 ms with one answer streaming, as here), or wait
 * for the socket (published faster than the server sends them), arrive merged: fewer frames, the same text in the
 * same order.
 */
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser } from "../testing/client";
import type { ChatMessageEventPayload } from "./chat.events";
import { type ChatEvent, EventCollector, eventually, gqlOk, Q, wsClient } from "./chat.test-helpers";

let app: TestApp;
let alice: Awaited<ReturnType<typeof createVerifiedUser>>;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp();
  alice = await createVerifiedUser(app);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await app?.close();
});

async function subscribed(): Promise<{ sessionId: string; events: EventCollector }> {
  const sessionId = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId as string;
  const client = wsClient(app, alice.token);
  clients.push(client);
  const before = app.services.chat.subscriberCount();
  const events = new EventCollector(client, sessionId);
  // the subscription is set up asynchronously (ownership check)
  await eventually(async () => (app.services.chat.subscriberCount() > before ? true : undefined));
  return { sessionId, events };
}

function publishDelta(sessionId: string, messageId: string, delta: string): void {
  const payload: ChatMessageEventPayload = {
    type: "DELTA",
    sessionId,
    userId: alice.user.id,
    messageId,
    delta,
    message: null,
  };
  app.services.events.publish("CHAT_MESSAGE_EVENT", payload);
}

const deltas = (events: ChatEvent[], messageId: string) =>
  events.filter((e) => e.type === "DELTA" && e.messageId === messageId).map((e) => e.delta ?? "");

const TOKENS = Array.from({ length: 200 }, (_, i) => `t${i} `);
const TEXT = TOKENS.join("");

describe("DELTA frames on a subscriber's websocket", () => {
  it("should send one frame per DELTA when the server keeps up", async () => {
    const { sessionId, events } = await subscribed();
    const messageId = "000000000000000000000001";
    const quiet = TOKENS.slice(0, 12);
    // each token once the previous one has arrived: nothing ever waits for the socket
    for (let i = 0; i < quiet.length; i++) {
      publishDelta(sessionId, messageId, quiet[i]);
      await events.until(
        (list) => deltas(list, messageId).join("").length >= quiet.slice(0, i + 1).join("").length,
      );
    }
    expect(deltas(events.events, messageId)).toEqual(quiet);
    events.close();
  });

  it("should merge the DELTAs that wait for the socket: fewer frames, the same text in order", async () => {
    const { sessionId, events } = await subscribed();
    const messageId = "000000000000000000000002";
    // all at once: the first goes out while the others wait for it
    for (const token of TOKENS) publishDelta(sessionId, messageId, token);
    await events.until((list) => deltas(list, messageId).join("").length >= TEXT.length);
    const frames = deltas(events.events, messageId);
    expect(frames.join("")).toBe(TEXT);
    expect(frames.length).toBeLessThan(TOKENS.length / 10);
    expect(frames[0]).toBe(TOKENS[0]);
    events.close();
  });

  it("should send a message's DELTAs that come within the DELTA pace as one frame, the first at once", async () => {
    const { sessionId, events } = await subscribed();
    const messageId = "000000000000000000000003";
    const fast = TOKENS.slice(0, 40);
    // a model streaming a token every 4 ms (250 a second): the server keeps up with each one
    for (const token of fast) {
      publishDelta(sessionId, messageId, token);
      await new Promise((r) => setTimeout(r, 4));
    }
    const text = fast.join("");
    await events.until((list) => deltas(list, messageId).join("").length >= text.length);
    const frames = deltas(events.events, messageId);
    expect(frames.join("")).toBe(text);
    expect(frames[0]).toBe(fast[0]); // the first goes out alone, at once
    // one frame per DELTA_PACE_MIN_MS (16 ms, one answer streaming) at most: ~10 for 40 tokens over 160 ms
    expect(frames.length).toBeLessThanOrEqual(fast.length / 2);
    events.close();
  });
});
