import { describe, expect, it } from "vitest";
import { sessionToMarkdown } from "./chat.export";
import type { ChatMessageView, ChatSessionView } from "./chat.presenter";

const at = new Date("2025-06-22T10:15:00Z");
const session: ChatSessionView = {
  id: "s1",
  sessionId: "s1",
  title: "Klager [1] *vigtigt*",
  untitled: false,
  createdAt: at,
  lastUpdated: at,
};

function message(overrides: Partial<ChatMessageView>): ChatMessageView {
  return {
    id: "m",
    sessionId: "s1",
    role: "user",
    content: "",
    timestamp: at,
    status: null,
    replyTo: null,
    citations: [],
    usedNumbers: [],
    mode: null,
    error: null,
    knowledgeGap: false,
    freshnessWarnings: [],
    feedback: null,
    parentId: null,
    siblingIndex: 1,
    siblingCount: 1,
    siblingIds: ["m"],
    followUps: [],
    ...overrides,
  };
}

describe("sessionToMarkdown", () => {
  it("should write the title escaped, each turn with its time, and the sources as links", () => {
    const md = sessionToMarkdown(
      session,
      [
        message({ role: "user", content: "Hvad er klagefristen?\nOg <b>hvorfor</b>?" }),
        message({
          role: "assistant",
          status: "complete",
          content: "Fire uger [1].",
          citations: [
            {
              number: 1,
              articleId: "a1",
              title: "Klager over afgørelser",
              headingPath: ["Klagefristen"],
              heading: "Klagefristen",
              url: "/knowledge?article=a1",
              passage: "…",
              updatedAt: null,
            },
          ],
        }),
      ],
      at,
    );
    expect(md.startsWith("# Klager \\[1\\] \\*vigtigt\\*\n")).toBe(true);
    expect(md).toContain("## Du · 22.06.2025, 12.15");
    // the user's text is quoted and can never become HTML
    expect(md).toContain("> Hvad er klagefristen?\n> Og \\<b\\>hvorfor\\</b\\>?");
    expect(md).not.toContain("<b>");
    expect(md).toContain("## Assistent · 22.06.2025, 12.15\n\nFire uger [1].");
    expect(md).toContain("**Kilder**\n\n1. [Klager over afgørelser › Klagefristen](/knowledge?article=a1)");
  });

  it("should mark stopped and failed answers", () => {
    const md = sessionToMarkdown(session, [
      message({ role: "assistant", status: "stopped", content: "Halvt" }),
      message({
        role: "assistant",
        status: "error",
        error: {
          code: "LLM_TIMEOUT",
          message: "AI-assistenten svarede ikke i tide. Prøv igen.",
          retryable: true,
        },
      }),
    ]);
    expect(md).toContain("Halvt\n\n_(Svaret blev stoppet.)_");
    expect(md).toContain("_(Fejl: AI-assistenten svarede ikke i tide. Prøv igen.)_");
  });
});
