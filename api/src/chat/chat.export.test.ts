import { micromark } from "micromark";
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

  it("should load no image from the user's text or an answer in a Markdown viewer, showing each as a link", () => {
    const hostile = [
      "Se ![kvittering](https://evil.example/a.png?q=hemmelig)",
      "\\\\![to skråstreger](https://evil.example/b.png)",
      "\\![allerede escaped](https://evil.example/c.png)",
      "!![dobbelt](https://evil.example/d.png)",
      "[![i et link](https://evil.example/e.png)](https://example.org)",
      "![reference][r]\n\n[r]: https://evil.example/f.png",
      "```\n![i kode](https://evil.example/g.png)\n```",
      "<img src=https://evil.example/h.png>",
    ];
    const md = sessionToMarkdown(session, [
      ...hostile.map((content) => message({ role: "user", content })),
      // an answer stored before the answer engine stripped HTML, and one with an image the model was asked for
      message({ role: "assistant", status: "complete", content: hostile.join("\n\n") }),
      // a fence left open by one message cannot hide an image in the next from the escaping
      message({ role: "assistant", status: "complete", content: "```\nåben kode" }),
      message({
        role: "assistant",
        status: "complete",
        content: "```\n![efter](https://evil.example/i.png)",
      }),
    ]);
    // a viewer that renders raw HTML too
    const html = micromark(md, { allowDangerousHtml: true });
    expect(html).not.toContain("<img");
    // the image reads as a link to its address, as the web app shows it
    expect(md).toContain("> Se \\![kvittering](https://evil.example/a.png?q=hemmelig)");
    expect(html).toContain('<a href="https://evil.example/a.png?q=hemmelig">kvittering</a>');
  });
});
