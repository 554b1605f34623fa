import { describe, expect, it } from "vitest";
import { chunkArticle } from "./search.chunker";

const words = (n: number, prefix = "ord") => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");

describe("chunkArticle", () => {
  it("should keep the heading path of each section, without repeating the title", () => {
    const passages = chunkArticle({
      id: "a",
      title: "Klager",
      category: "Sagsbehandling",
      content: [
        "# Klager",
        "",
        `Indledning ${words(40, "intro")}`,
        "## Frister",
        "### Klagefrist",
        `Klagefristen er 4 uger. ${words(40, "k")}`,
        "### Genvurdering",
        `Genvurdering inden 10 arbejdsdage. ${words(40, "g")}`,
        "## Klageudvalget",
        `Tre medlemmer. ${words(40, "u")}`,
      ].join("\n"),
    });
    expect(passages.map((p) => p.headingPath)).toEqual([
      [],
      ["Frister", "Klagefrist"],
      ["Frister", "Genvurdering"],
      ["Klageudvalget"],
    ]);
    expect(passages.map((p) => p.position)).toEqual([0, 1, 2, 3]);
    expect(passages[1]).toMatchObject({
      id: "a#1",
      articleId: "a",
      title: "Klager",
      category: "Sagsbehandling",
    });
    expect(passages[1].text.startsWith("Klagefristen er 4 uger.")).toBe(true);
    // Heading lines are in the path, not in the text.
    expect(passages.some((p) => p.text.includes("##"))).toBe(false);
  });

  it("should merge a short intro into its first sub-section", () => {
    const passages = chunkArticle({
      id: "b",
      title: "T",
      category: "X",
      content: `## Frister\nKort intro.\n### Svarfrist\n${words(50)}\n## Andet\n${words(50, "x")}`,
    });
    expect(passages).toHaveLength(2);
    expect(passages[0].headingPath).toEqual(["Frister", "Svarfrist"]);
    expect(passages[0].text.startsWith("Kort intro.\n")).toBe(true);
  });

  it("should cut a long section into bounded windows that overlap", () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Linje ${i} ${words(8, `l${i}w`)}`);
    const passages = chunkArticle(
      { id: "c", title: "T", category: "X", content: `## Lang sektion\n${lines.join("\n")}` },
      { maxWords: 100, overlapWords: 20 },
    );
    expect(passages.length).toBeGreaterThanOrEqual(6);
    for (const p of passages) {
      expect(p.wordCount).toBeLessThanOrEqual(100);
      expect(p.headingPath).toEqual(["Lang sektion"]);
    }
    for (let i = 1; i < passages.length; i++) {
      const prevTail = passages[i - 1].text.split(/\s+/).slice(-10).join(" ");
      expect(passages[i].text, `passage ${i} should start with the end of passage ${i - 1}`).toContain(
        prevTail,
      );
    }
    // Every word of the section is in some passage.
    const all = passages.map((p) => p.text).join(" ");
    for (const line of lines) expect(all).toContain(line);
  });

  it("should give an article without headings one passage and an empty article none", () => {
    expect(chunkArticle({ id: "d", title: "T", category: "X", content: "Bare en linje." })).toHaveLength(1);
    expect(chunkArticle({ id: "e", title: "T", category: "X", content: "\n\n# T\n" })).toHaveLength(0);
  });
});
