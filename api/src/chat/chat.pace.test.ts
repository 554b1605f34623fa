/**
 * The DELTA pace rule (chat.pace.ts) and what a subscriber gets through the SessionEventHub: every token of an
 * answer while few stream, fewer frames than tokens while many do, the first DELTA at once, the whole text in
 * order whatever the answer's end. The clock is vitest's fake one: frames are counted, not timed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type EventBus } from "../events/bus";
import { createInProcessBus } from "../events/in-process";
import { settledNow } from "../testing/settled-now";
import { type ChatMessageEventPayload, type ChatMessageEventType, SessionEventHub } from "./chat.events";
import {
  DELTA_FRAMES_PER_SECOND,
  DELTA_PACE_MAX_MS,
  DELTA_PACE_MIN_MS,
  deltaPaceMs,
  STREAM_IDLE_MS,
  StreamingAnswers,
} from "./chat.pace";

describe("deltaPaceMs", () => {
  it("stays at the quickest pace while few answers stream, widens with more, and is bounded", () => {
    const quiet = Math.floor((DELTA_FRAMES_PER_SECOND * DELTA_PACE_MIN_MS) / 1_000);
    for (const n of [0, 1, quiet]) expect(deltaPaceMs(n)).toBe(DELTA_PACE_MIN_MS);
    expect(deltaPaceMs(quiet * 3)).toBeGreaterThan(DELTA_PACE_MIN_MS);
    expect(deltaPaceMs(quiet * 3)).toBeLessThan(DELTA_PACE_MAX_MS);
    for (const n of [1_000, 1e9]) expect(deltaPaceMs(n)).toBe(DELTA_PACE_MAX_MS);
    for (let n = 1; n < 100; n++) expect(deltaPaceMs(n)).toBeGreaterThanOrEqual(deltaPaceMs(n - 1));
  });
});

describe("StreamingAnswers", () => {
  it("counts an answer from a DELTA until its outcome event, or until it has been idle STREAM_IDLE_MS", () => {
    const streaming = new StreamingAnswers();
    streaming.note("m1", "CREATED", 0);
    expect(streaming.count(0)).toBe(0);
    streaming.note("m1", "DELTA", 0);
    streaming.note("m2", "DELTA", 0);
    streaming.note("m2", "DELTA", 10);
    expect(streaming.count(10)).toBe(2);
    streaming.note("m1", "COMPLETED", 20);
    expect(streaming.count(20)).toBe(1);
    streaming.note("m3", "DELTA", STREAM_IDLE_MS);
    // m2's outcome never came: it stops counting once idle
    expect(streaming.count(STREAM_IDLE_MS + 10)).toBe(1);
    for (const outcome of ["STOPPED", "ERROR"]) {
      streaming.note("m4", "DELTA", STREAM_IDLE_MS + 20);
      streaming.note("m4", outcome, STREAM_IDLE_MS + 30);
      expect(streaming.count(STREAM_IDLE_MS + 30)).toBe(1);
    }
  });
});

const event = (
  type: ChatMessageEventType,
  messageId: string,
  delta: string | null = null,
): ChatMessageEventPayload => ({
  type,
  sessionId: `s-${messageId}`,
  userId: "u1",
  messageId,
  delta,
  message: null,
});

/** A subscriber that keeps up: it takes each event as soon as the hub hands it over. */
function subscriber(hub: SessionEventHub, messageId: string) {
  const got: ChatMessageEventPayload[] = [];
  const events = hub.events(`s-${messageId}`, "u1");
  const ended = (async () => {
    for (let e = await events.next(); !e.done; e = await events.next()) {
      got.push(e.value);
      if (e.value.type !== "DELTA" && e.value.type !== "CREATED") return;
    }
  })();
  return {
    got,
    ended,
    frames: () => got.filter((e) => e.type === "DELTA"),
    text: () =>
      got
        .filter((e) => e.type === "DELTA")
        .map((e) => e.delta)
        .join(""),
  };
}

const TOKENS = Array.from({ length: 30 }, (_, i) => `t${i} `);
/** a model's pace: a token every 20 ms (slower than the quickest DELTA pace) */
const TOKEN_GAP_MS = 20;

/**
 * `answers` answers streaming at once, each to its own subscriber: CREATED, TOKENS one every TOKEN_GAP_MS, then
 * `end` right after the last token. The subscribers, once every answer has ended.
 */
async function stream(
  bus: EventBus,
  hub: SessionEventHub,
  answers: number,
  end: ChatMessageEventType = "COMPLETED",
) {
  const ids = Array.from({ length: answers }, (_, i) => `m${i}`);
  const subs = ids.map((id) => subscriber(hub, id));
  for (const id of ids) bus.publish("CHAT_MESSAGE_EVENT", event("CREATED", id));
  for (const token of TOKENS) {
    for (const id of ids) bus.publish("CHAT_MESSAGE_EVENT", event("DELTA", id, token));
    await vi.advanceTimersByTimeAsync(TOKEN_GAP_MS);
  }
  for (const id of ids) bus.publish("CHAT_MESSAGE_EVENT", event(end, id));
  await vi.advanceTimersByTimeAsync(0);
  await Promise.all(subs.map((s) => s.ended));
  return subs;
}

describe("SessionEventHub's DELTA pace", () => {
  let bus: EventBus;
  let hub: SessionEventHub;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    bus = createInProcessBus();
    hub = new SessionEventHub(() => bus.subscribe("CHAT_MESSAGE_EVENT"));
  });
  afterEach(async () => {
    await hub.close();
    vi.useRealTimers();
  });

  it("hands every token of a lone answer over as its own frame", async () => {
    const [only] = await stream(bus, hub, 1);
    expect(only.frames().map((e) => e.delta)).toEqual(TOKENS);
    expect(only.got.at(-1)?.type).toBe("COMPLETED");
  });

  it("sends fewer frames than tokens while many answers stream, each text whole and in order", async () => {
    const subs = await stream(bus, hub, 40);
    for (const s of subs) {
      expect(s.text()).toBe(TOKENS.join(""));
      expect(s.frames()[0].delta).toBe(TOKENS[0]);
      expect(s.frames().length).toBeLessThanOrEqual(TOKENS.length / 3);
      expect(s.got.at(-1)?.type).toBe("COMPLETED");
    }
    expect(hub.streamingCount()).toBe(0); // every answer ended
  });

  it("lets the held tokens go before a stopped or failed answer's outcome, none lost", async () => {
    for (const end of ["STOPPED", "ERROR"] as const) {
      const subs = await stream(bus, hub, 40, end);
      for (const s of subs) {
        expect(s.text()).toBe(TOKENS.join(""));
        expect(s.got.map((e) => e.type).at(-1)).toBe(end);
        expect(s.got.filter((e) => e.type !== "DELTA" && e.type !== "CREATED")).toHaveLength(1);
      }
    }
  });

  it("hands an answer's first DELTA over at once while many others stream", async () => {
    const busy = Array.from({ length: 40 }, (_, i) => `b${i}`);
    const subs = busy.map((id) => subscriber(hub, id));
    for (const id of busy) bus.publish("CHAT_MESSAGE_EVENT", event("DELTA", id, "x"));
    await vi.advanceTimersByTimeAsync(0);
    expect(hub.streamingCount()).toBe(busy.length);

    const events = hub.events("s-new", "u1");
    const first = events.next();
    bus.publish("CHAT_MESSAGE_EVENT", event("DELTA", "new", "Klage"));
    expect(await settledNow(first)).toBe(true);
    expect((await first).value?.delta).toBe("Klage");
    // a second token within the pace waits (the clock does not move here), merged with the ones after it
    const second = events.next();
    bus.publish("CHAT_MESSAGE_EVENT", event("DELTA", "new", "fris"));
    bus.publish("CHAT_MESSAGE_EVENT", event("DELTA", "new", "ten"));
    expect(await settledNow(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(DELTA_PACE_MAX_MS);
    expect((await second).value?.delta).toBe("fristen");
    for (const id of busy) bus.publish("CHAT_MESSAGE_EVENT", event("COMPLETED", id));
    await Promise.all(subs.map((s) => s.ended));
  });
});
