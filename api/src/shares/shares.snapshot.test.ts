/** What a share keeps of the shown conversation: finished answers and their questions, no feedback, no branches. */
import { describe, expect, it } from "vitest";
import type { ChatMessageView } from "../chat/chat.presenter";
import { snapshotMessages } from "./shares.service";

function msg(
  id: string,
  role: "user" | "assistant",
  status: ChatMessageView["status"],
  replyTo: string | null = null,
) {
  return {
    id,
    sessionId: "s",
    role,
    content: id,
    timestamp: new Date(),
    status,
    replyTo,
    citations: [
      {
        number: 1,
        articleId: "a",
        title: "T",
        headingPath: ["H"],
        heading: "H",
        url: null,
        passage: "p",
        updatedAt: null,
      },
    ],
    usedNumbers: [],
    mode: null,
    error: null,
    knowledgeGap: false,
    freshnessWarnings: [],
    feedback: role === "assistant" ? { rating: "up" as const, comment: "privat", at: null } : null,
    parentId: null,
    siblingIndex: 2,
    siblingCount: 3,
    siblingIds: ["x", id, "y"],
    followUps: role === "assistant" ? ["Hvad står der om fristen?"] : [],
  } satisfies ChatMessageView;
}

describe("snapshotMessages", () => {
  it("should keep complete and stopped answers with their questions and drop running or failed ones with theirs", () => {
    const list = [
      msg("q1", "user", null),
      msg("a1", "assistant", "complete", "q1"),
      msg("q2", "user", null),
      msg("a2", "assistant", "error", "q2"),
      msg("q3", "user", null),
      msg("a3", "assistant", "stopped", "q3"),
      msg("q4", "user", null),
      msg("a4", "assistant", "streaming", "q4"),
    ];
    const kept = snapshotMessages(list);
    expect(kept.map((m) => m.id)).toEqual(["q1", "a1", "q3", "a3"]);
    expect(kept.every((m) => m.feedback === null)).toBe(true);
    // one branch to read: no alternatives to switch to, no follow-up questions to ask
    expect(
      kept.every((m) => m.siblingCount === 1 && m.siblingIds.length === 1 && m.followUps.length === 0),
    ).toBe(true);
    // citations are copies: the snapshot does not share objects with the source list
    expect(kept[1].citations[0]).toEqual(list[1].citations[0]);
    expect(kept[1].citations[0]).not.toBe(list[1].citations[0]);
  });

  it("should keep a question whose failed answer was retried into a finished one", () => {
    const kept = snapshotMessages([
      msg("q1", "user", null),
      msg("a1", "assistant", "error", "q1"),
      msg("a1b", "assistant", "complete", "q1"),
    ]);
    expect(kept.map((m) => m.id)).toEqual(["q1", "a1b"]);
  });
});
