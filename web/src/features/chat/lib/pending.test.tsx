import { describe, expect, it } from "vitest";
import { bareMessage, type Message } from "./messages";
import { type PendingAnswer, pendingRowKey, withPending } from "./pending";

const msg = (over: Partial<Message>): Message =>
  bareMessage({
    id: "a1",
    sessionId: "s1",
    role: "assistant",
    content: "",
    timestamp: "2026-01-01T10:00:00Z",
    status: "complete",
    ...over,
  });

const shown = [
  msg({ id: "u1", role: "user", status: null, content: "Første?" }),
  msg({ id: "a1", parentId: "u1", content: "Svar 1" }),
];
const pending = (over: Partial<PendingAnswer> = {}): PendingAnswer => ({
  key: "7",
  sessionId: "s1",
  before: new Set(shown.map((m) => m.id)),
  question: "Hvad er klagefristen?",
  ...over,
});
const view = (list: Message[], p: PendingAnswer | null) =>
  withPending(list, p).messages.map((m) => [m.id, m.role, m.status, m.content]);

describe("chat: the answer being started (stand-ins until the mutation answers)", () => {
  it("should show the sent question and a waiting answer after the list, until the real ones join", () => {
    const p = pending();
    expect(view(shown, p).slice(2)).toEqual([
      ["pending:7:user", "user", null, "Hvad er klagefristen?"],
      ["pending:7:assistant", "assistant", "pending", ""],
    ]);
    // the answer's CREATED event came before the send's response: it takes the stand-in's place (and row key),
    // the question's stand-in stays before it
    const created = [...shown, msg({ id: "a2", parentId: "u2", status: "pending" })];
    const early = withPending(created, p);
    expect(early.messages.map((m) => m.id)).toEqual(["u1", "a1", "pending:7:user", "a2"]);
    expect(early.keys.get("a2")).toBe(pendingRowKey(p, "assistant"));
    // the session's messages loaded with both (a new session): no stand-in is left, no message twice
    const loaded = [
      ...shown,
      msg({ id: "u2", role: "user", status: null, content: "Hvad er klagefristen?", parentId: "a1" }),
      msg({ id: "a2", status: "streaming", parentId: "u2" }),
    ];
    expect(withPending(loaded, p).messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(withPending(loaded, null).messages).toBe(loaded);
  });

  it("should keep messages that arrived meanwhile and are not the send's (a load, an earlier page)", () => {
    // sent before the session's messages had loaded: they are all unknown to the send, and stay
    const early = pending({ before: new Set() });
    expect(view(shown, early).map((r) => r[0])).toEqual([
      "u1",
      "a1",
      "pending:7:user",
      "pending:7:assistant",
    ]);
    // an earlier page put before the list while it waits: a question there is not the one sent
    const earlier = [
      msg({ id: "u0", role: "user", status: null, content: "Hvad er klagefristen?" }),
      ...shown,
    ];
    expect(view(earlier, pending()).map((r) => r[0])).toEqual([
      "u0",
      "u1",
      "a1",
      "pending:7:user",
      "pending:7:assistant",
    ]);
  });

  it("should show a new session's first question alone with the waiting answer", () => {
    expect(view([], pending({ sessionId: null, before: new Set() }))).toEqual([
      ["pending:7:user", "user", null, "Hvad er klagefristen?"],
      ["pending:7:assistant", "assistant", "pending", ""],
    ]);
  });

  it("should replace a regenerated answer, keep an edited question (its editor) and wait again on a retry", () => {
    expect(view(shown, pending({ from: "a1", question: null }))).toEqual([
      ["u1", "user", null, "Første?"],
      ["pending:7:assistant", "assistant", "pending", ""],
    ]);
    // the regenerated answer listed before the response (its parent is the same question): it takes the place
    const regenerated = [...shown, msg({ id: "a3", parentId: "u1", status: "streaming", content: "Nyt" })];
    const again = withPending(regenerated, pending({ from: "a1", question: null, parent: "u1" }));
    expect(again.messages.map((m) => m.id)).toEqual(["u1", "a3"]);
    expect(again.keys.get("a3")).toBe("pending:7:assistant");
    expect(view(shown, pending({ after: "u1", question: null })).map((r) => r[0])).toEqual([
      "u1",
      "pending:7:assistant",
    ]);
    const failed = [shown[0] as Message, msg({ id: "a1", status: "error", content: "x", error: null })];
    const retry = withPending(failed, pending({ from: "a1", question: null, retry: true }));
    expect(retry.messages[1]).toMatchObject({ id: "a1", status: "pending", content: "" });
    // a retried answer keeps its id and row
    expect(retry.keys.size).toBe(0);
  });
});
