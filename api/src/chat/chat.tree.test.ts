/** The message tree (pure) and the follow-up questions (pure). */
import { describe, expect, it } from "vitest";
import { markdownHeadings, suggestFollowUps } from "./answer";
import { branchHistory } from "./chat.history";
import { MessageTree } from "./chat.tree";

const t0 = Date.parse("2026-01-01T10:00:00Z");
type Doc = {
  _id: string;
  parentId?: string | null;
  timestamp: Date;
  role: string;
  status?: string;
  content: string;
};
const msg = (id: string, n: number, parentId?: string | null, role = "user", status?: string): Doc => ({
  _id: id,
  timestamp: new Date(t0 + n * 1000),
  role,
  status,
  content: id,
  ...(parentId === undefined ? {} : { parentId }),
});

describe("MessageTree", () => {
  it("should read messages without parentId as one linear branch in time order", () => {
    const tree = new MessageTree([
      msg("a1", 2, undefined, "assistant", "complete"),
      msg("q1", 1),
      msg("q2", 3),
    ]);
    expect(tree.shownBranch(null).map((d) => d._id)).toEqual(["q1", "a1", "q2"]);
    expect(tree.branchInfo("a1")).toEqual({
      parentId: "q1",
      siblingIndex: 1,
      siblingCount: 1,
      siblingIds: ["a1"],
    });
  });

  it("should keep siblings oldest first and show the branch through the active leaf", () => {
    const docs = [
      msg("q1", 1),
      msg("a1", 2, undefined, "assistant", "complete"),
      msg("q2", 3, "a1"),
      msg("a2", 4, "q2", "assistant", "complete"),
      msg("q2b", 5, "a1"), // an edit of q2
      msg("a2b", 6, "q2b", "assistant", "complete"),
      msg("a2c", 7, "q2b", "assistant", "error"), // a regenerate of a2b
    ];
    const tree = new MessageTree(docs);
    // without an active leaf: the newest path
    expect(tree.shownBranch(null).map((d) => d._id)).toEqual(["q1", "a1", "q2b", "a2c"]);
    expect(tree.shownBranch("a2").map((d) => d._id)).toEqual(["q1", "a1", "q2", "a2"]);
    expect(tree.shownBranch("a2b").map((d) => d._id)).toEqual(["q1", "a1", "q2b", "a2b"]);
    // an active leaf that is not stored (its insert failed): the newest path
    expect(tree.shownBranch("zz").map((d) => d._id)).toEqual(["q1", "a1", "q2b", "a2c"]);
    expect(tree.branchInfo("q2b")).toMatchObject({
      siblingIndex: 2,
      siblingCount: 2,
      siblingIds: ["q2", "q2b"],
    });
    expect(tree.newestLeafUnder("q2")).toBe("a2");
    // the history of a branch leaves out failed answers, and stops where asked
    expect(branchHistory(tree, "a2c", 12).map((h) => h.content)).toEqual(["q1", "a1", "q2b"]);
    expect(branchHistory(tree, "a1", 12).map((h) => h.content)).toEqual(["q1", "a1"]);
    expect(branchHistory(tree, null, 12).map((h) => h.content)).toEqual([]);
  });

  it("should read a parentId that is not in the session as the message before it", () => {
    const tree = new MessageTree([msg("q1", 1, null), msg("q2", 2, "missing")]);
    expect(tree.parent("q2")).toBe("q1");
    expect(tree.shownBranch(null).map((d) => d._id)).toEqual(["q1", "q2"]);
  });
});

describe("suggestFollowUps", () => {
  const article = [
    "# Klager over afgørelser",
    "Intro.",
    "## Klagefristen",
    "```",
    "## Ikke en overskrift",
    "```",
    "### Klage efter fristens *udløb*",
    "## Hvordan klager man?",
    "## Trin i klagesagen",
    "## Klageudvalget",
  ].join("\n");
  const citation = {
    number: 1,
    articleId: "k",
    title: "Klager over afgørelser",
    headingPath: ["Klagefristen"],
    passage: "…",
  };

  it("should ask about the cited article's other headings, at most 3, in the user's language", () => {
    expect(markdownHeadings(article)).toEqual([
      "Klager over afgørelser",
      "Klagefristen",
      "Klage efter fristens udløb",
      "Hvordan klager man?",
      "Trin i klagesagen",
      "Klageudvalget",
    ]);
    const da = suggestFollowUps({
      question: "Hvad er klagefristen?",
      citations: [citation],
      language: "da",
      articles: new Map([["k", article]]),
    });
    expect(da).toEqual([
      "Hvad står der om klage efter fristens udløb?",
      "Hvordan klager man?",
      "Hvad står der om trin i klagesagen?",
    ]);
    const en = suggestFollowUps({
      question: "Hvordan klager man?",
      citations: [citation],
      language: "en",
      articles: new Map([["k", article]]),
    });
    // the question's own heading is not suggested back
    expect(en).toEqual([
      "What does it say about “Klage efter fristens udløb”?",
      "What does it say about “Trin i klagesagen”?",
      "What does it say about “Klageudvalget”?",
    ]);
    expect(
      suggestFollowUps({ question: "x", citations: [], language: "da", articles: new Map([["k", article]]) }),
    ).toEqual([]);
  });

  it("should fall back to the sources' headings when the article text is unknown", () => {
    const source = (h: string) => ({
      number: 1,
      articleId: "k",
      title: "Klager over afgørelser",
      headingPath: [h],
      text: "",
      score: 1,
    });
    const out = suggestFollowUps({
      question: "Hvad er klagefristen?",
      citations: [citation],
      language: "da",
      articles: new Map(),
      sources: [source("Klagefristen"), source("Klageudvalget"), source("Klageudvalget")],
    });
    expect(out).toEqual(["Hvad står der om klageudvalget?"]);
  });
});
