import { describe, expect, it } from "vitest";
import { makeTranslate } from "../../../i18n/i18n";
import { articleHref, headingAnchor } from "../../../lib/anchors";
import { articleLines, classifyLine } from "./articleLines";
import { bookmarkDate } from "./bookmarks";
import { articleExcerpt, cardTags, cardTitle, cut } from "./excerpt";
import { splitHighlights } from "./highlight";
import { readView, viewHref } from "./knowledgeView";

describe("excerpt", () => {
  it("should cut a long first paragraph (over 20 characters) at 180 with '…'", () => {
    const para = "Ord ".repeat(80).trim();
    const text = articleExcerpt(`# Titel\n\n${para}\n\nAndet afsnit.`);
    expect(Array.from(text).length).toBeLessThanOrEqual(181);
    expect(Array.from(text).length).toBeGreaterThan(150);
    expect(text.endsWith("…")).toBe(true);
    expect(text.startsWith("Ord Ord")).toBe(true);
  });

  it("should show a whole first paragraph that fits, without the heading", () => {
    expect(articleExcerpt("# Fakturering\n\nSådan sender vi fakturaer til medlemmer.\n\nMere.")).toBe(
      "Sådan sender vi fakturaer til medlemmer.",
    );
  });

  it("should take the first 150 characters when the first paragraph is 20 characters or less", () => {
    const rest = "x".repeat(300);
    const text = articleExcerpt(`Kort.\n\n${rest}`);
    expect(Array.from(text).length).toBe(151);
    expect(text.startsWith("Kort. xxx")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
  });

  it("should drop list markers from the excerpt", () => {
    expect(articleExcerpt("- første punkt i listen her\n- andet punkt")).toBe(
      "første punkt i listen her andet punkt",
    );
  });

  it("should cut titles at 60 characters and leave short ones alone", () => {
    expect(cardTitle("Kort titel")).toBe("Kort titel");
    const long = cardTitle("Afgørelser – indhold, begrundelse og klagevejledning i sager om støtte");
    expect(Array.from(long).length).toBeLessThanOrEqual(61);
    expect(long.endsWith("…")).toBe(true);
  });

  it("should count characters, not UTF-16 units, and back up to a word boundary", () => {
    expect(cut("æøå ".repeat(10), 8)).toBe("æøå æøå…");
  });

  it("should show up to n tags and count the rest", () => {
    expect(cardTags(["a", "b", "c", "d", "e"], 3)).toEqual({ shown: ["a", "b", "c"], more: 2 });
    expect(cardTags(["a", "b"], 2)).toEqual({ shown: ["a", "b"], more: 0 });
    expect(cardTags([], 2)).toEqual({ shown: [], more: 0 });
  });
});

describe("articleLines", () => {
  it("should give every line kind of spec §2", () => {
    const content = [
      "# Overskrift",
      "## Afsnit",
      "### Underafsnit",
      "- punkt",
      "• punkt to",
      "1. første",
      "12) tolvte",
      "",
      "",
      "Vigtigt at vide",
      "Titel: Support",
      "husk notat: ring tilbage",
      "En almindelig linje med en hel sætning, der slutter med punktum og er ret lang.",
      "Kort sætning.",
    ].join("\n");
    expect(articleLines(content).map((l) => [l.kind, l.text])).toEqual([
      ["h1", "Overskrift"],
      ["h2", "Afsnit"],
      ["h3", "Underafsnit"],
      ["bullet", "punkt"],
      ["bullet", "punkt to"],
      ["numbered", "første"],
      ["numbered", "tolvte"],
      ["blank", ""],
      ["bold", "Vigtigt at vide"],
      ["bold", "Titel: Support"],
      ["bold", "husk notat: ring tilbage"],
      ["text", "En almindelig linje med en hel sætning, der slutter med punktum og er ret lang."],
      ["text", "Kort sætning."],
    ]);
  });

  it("should keep the number of a numbered item and treat '#hashtag' as text", () => {
    expect(classifyLine("3. tredje")).toEqual({ kind: "numbered", text: "tredje", number: "3" });
    expect(classifyLine("#hashtag uden mellemrum").kind).toBe("text");
  });

  it("should keep markup as text", () => {
    expect(classifyLine("<img src=x onerror=alert(1)>")).toEqual({
      kind: "text",
      text: "<img src=x onerror=alert(1)>",
    });
  });

  it("should give headings the anchors citations link to", () => {
    const [h] = articleLines("## Før afgørelsen: partshøring");
    expect(articleHref("a1", ["Afgørelser", h?.text ?? ""])).toBe(
      `/knowledge?article=a1#${headingAnchor("Før afgørelsen: partshøring")}`,
    );
  });
});

describe("splitHighlights", () => {
  it("should split text at the ranges and give the text back whole", () => {
    const pieces = splitHighlights("om fakturaer og faktura", [
      { start: 3, end: 12 },
      { start: 16, end: 23 },
    ]);
    expect(pieces).toEqual([
      { text: "om ", highlighted: false },
      { text: "fakturaer", highlighted: true },
      { text: " og ", highlighted: false },
      { text: "faktura", highlighted: true },
    ]);
  });

  it("should merge overlapping ranges and clamp bad ones", () => {
    const text = "abcdef";
    const pieces = splitHighlights(text, [
      { start: 4, end: 99 },
      { start: 1, end: 3 },
      { start: 2, end: 4 },
      { start: 5, end: 2 },
    ]);
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(pieces).toEqual([
      { text: "a", highlighted: false },
      { text: "bcdef", highlighted: true },
    ]);
  });
});

describe("knowledge view in the address", () => {
  it("should read and write each view", () => {
    const views = [
      { kind: "overview", query: "" },
      { kind: "overview", query: "faktura" },
      { kind: "category", category: "Økonomi", query: "" },
      { kind: "category", category: "Økonomi", query: "budget" },
      { kind: "article", articleId: "abc" },
      { kind: "bookmarks" },
    ] as const;
    for (const view of views) {
      const href = viewHref(view);
      expect(readView(new URL(href, "http://x").searchParams)).toEqual(view);
    }
    expect(viewHref({ kind: "overview", query: "" })).toBe("/knowledge");
  });

  it("should let an article win and bound the query", () => {
    expect(readView(new URLSearchParams("article=a&view=bookmarks&q=x"))).toEqual({
      kind: "article",
      articleId: "a",
    });
    const long = readView(new URLSearchParams(`q=${"a".repeat(500)}`));
    expect(long.kind === "overview" && long.query.length).toBe(200);
  });
});

describe("bookmark cards", () => {
  it("should show one date: when it was saved, with the article's update only when it came after", () => {
    const da = makeTranslate("da");
    const en = makeTranslate("en");
    const saved = "2026-11-03T10:00:00.000Z";
    expect(bookmarkDate(saved, "2026-10-01T08:00:00.000Z", da, "da-DK")).toBe("Gemt 3. november 2026");
    expect(bookmarkDate(saved, saved, en, "en-GB")).toBe("Saved 3 November 2026");
    expect(bookmarkDate(saved, "2026-11-05T09:00:00.000Z", da, "da-DK")).toBe(
      "Gemt 3. november 2026 · opdateret 5. november 2026",
    );
    expect(bookmarkDate(saved, "2026-11-05T09:00:00.000Z", en, "en-GB")).toBe(
      "Saved 3 November 2026 · updated 5 November 2026",
    );
  });
});
