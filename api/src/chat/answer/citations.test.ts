import { describe, expect, it } from "vitest";
import { buildCitations, CitationFilter, cleanCitations, extractCitationNumbers } from "./citations";
import type { NumberedSource } from "./types";

const three = new Set([1, 2, 3]);

/** Feed `text` through a filter in pieces of `size` characters, recording what is emitted after each push. */
function streamed(text: string, size: number, valid = three): { out: string; emitted: string[] } {
  const f = new CitationFilter(valid);
  const emitted: string[] = [];
  for (let i = 0; i < text.length; i += size) emitted.push(f.push(text.slice(i, i + size)));
  emitted.push(f.end());
  return { out: emitted.join(""), emitted };
}

describe("citations", () => {
  it("should keep valid markers and normalise groups", () => {
    expect(cleanCitations("Ferie [1] og løn [1,3] samt [2][3].", three)).toBe(
      "Ferie [1] og løn [1, 3] samt [2][3].",
    );
    expect(cleanCitations("Se [2-3].", three)).toBe("Se [2, 3].");
  });

  it("should remove invalid numbers, and whole markers with the space before them", () => {
    expect(cleanCitations("Ferie optjenes [7].", three)).toBe("Ferie optjenes.");
    expect(cleanCitations("Ferie [1, 7] og løn [0][2].", three)).toBe("Ferie [1] og løn [2].");
    expect(cleanCitations("A [9] b", three)).toBe("A b");
  });

  it("should leave brackets that are not markers alone", () => {
    const text = "Se [bilag A], [link](https://x.dk), arr`[0]` og \\[4] samt [ ] og [12a].";
    expect(cleanCitations(text, three)).toBe(text);
    expect(cleanCitations("```\nx = a[5]\n```\nSe [5]", three)).toBe("```\nx = a[5]\n```\nSe");
  });

  it("should give the same result for every way of splitting the stream", () => {
    const text = "Reglen [1] gælder [1, 7]. Undtagelsen [7] nævnes i [3][4] og [2–3]; se også [bilag] [2";
    const whole = cleanCitations(text, three);
    expect(whole).toBe("Reglen [1] gælder [1]. Undtagelsen nævnes i [3] og [2, 3]; se også [bilag]");
    for (let size = 1; size <= 12; size++) expect(streamed(text, size).out).toBe(whole);
  });

  it("should never emit part of a marker that later turns out invalid", () => {
    const text = "Svaret står i kilde [17] og ikke andre steder.";
    for (let size = 1; size <= 6; size++) {
      const { emitted } = streamed(text, size);
      let sofar = "";
      for (const e of emitted) {
        sofar += e;
        expect(sofar).not.toMatch(/\[\d*$/);
        expect(sofar).not.toContain("[1");
      }
      expect(sofar).toBe("Svaret står i kilde og ikke andre steder.");
    }
  });

  it("should extract used numbers in order of first use, skipping escaped and code brackets", () => {
    expect(extractCitationNumbers("B [3] og A [1, 3] og [2] \\[5] `[4]`")).toEqual([3, 1, 2]);
    expect(extractCitationNumbers("ingen kilder")).toEqual([]);
  });

  it("should map numbers to sources, in order, skipping unknown numbers", () => {
    const sources: NumberedSource[] = [1, 2].map((n) => ({
      number: n,
      articleId: `a${n}`,
      title: `Titel ${n}`,
      headingPath: ["H", `${n}`],
      text: `Tekst ${n} `.repeat(200),
      score: 1,
      url: n === 1 ? "/knowledge?article=a1" : undefined,
    }));
    const c = buildCitations([2, 9, 1], sources);
    expect(c.map((x) => x.number)).toEqual([2, 1]);
    expect(c[0]).toMatchObject({ articleId: "a2", title: "Titel 2", headingPath: ["H", "2"] });
    expect(c[0].url).toBeUndefined();
    expect(c[1].url).toBe("/knowledge?article=a1");
    expect(c[0].passage.length).toBeLessThanOrEqual(601);
    expect(c[0].passage.endsWith("…")).toBe(true);
  });

  it("should store a citation's title, headings and passage without HTML, whatever the article held", () => {
    const [c] = buildCitations(
      [1],
      [
        {
          number: 1,
          articleId: "a1",
          title: "Ferie <img src=x onerror=alert(1)>regler",
          headingPath: ["<scr<script>ipt>alert(1)</script>"],
          text: "Tekst <svg/onload=alert(1)> og &lt;script&gt; <!-- x --> slut.",
          score: 1,
        },
      ],
    );
    for (const text of [c.title, ...c.headingPath, c.passage]) expect(text).not.toMatch(/<[a-z/!?&]/i);
    expect(c.title).toBe("Ferie regler");
  });
});
