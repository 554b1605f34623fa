import { describe, expect, it } from "vitest";
import { normaliseWord } from "./search.analyzer";
import { buildSnippet, matchRanges, SnippetSourceCache, snippetSource, toPlainText } from "./search.snippet";

const terms = (...words: string[]) => new Set(words.map(normaliseWord));

describe("search.snippet", () => {
  it("should turn markdown lines into plain text without markers", () => {
    expect(toPlainText("# Titel\n\n## Frister\n- første punkt\n1. trin\n**fed** tekst")).toBe(
      "Titel · Frister · første punkt · 1. trin · fed tekst",
    );
  });

  it("should set a heading or list item off from the next line, and run sentences on with a space", () => {
    expect(
      toPlainText("## Aktindsigt og adgang\nEt medlem kan få indsigt.\nDet sker skriftligt:\n- på mail"),
    ).toBe("Aktindsigt og adgang · Et medlem kan få indsigt. Det sker skriftligt: på mail");
  });

  it("should not end a cut snippet on a line separator", () => {
    const plain = toPlainText(`${"ord ".repeat(3)}slut\n## Overskrift\n${"mere tekst ".repeat(20)}`);
    const { snippet } = buildSnippet(plain, terms("slut"), plain.indexOf("·") + 1);
    expect(snippet).toBe("ord ord ord slut…");
  });

  it("should mark every inflection of a matched word with ranges into the snippet", () => {
    const text =
      "Sagsbehandlingen starter, når sagsbehandling er bestilt. Alle sagsbehandlinger journaliseres.";
    const { snippet, highlights } = buildSnippet(text, terms("sagsbehandling"));
    expect(snippet).toBe(text);
    expect(highlights.map((h) => snippet.slice(h.start, h.end))).toEqual([
      "Sagsbehandlingen",
      "sagsbehandling",
      "sagsbehandlinger",
    ]);
  });

  it("should centre a long text on the densest matches and mark the cuts with an ellipsis", () => {
    const filler = "Lorem ipsum dolor sit amet. ".repeat(30);
    const text = `${filler}Klagefristen er 4 uger, og klagen går til klageudvalget. ${filler}`;
    const { snippet, highlights } = buildSnippet(text, terms("klagefrist", "klageudvalget"), 120);
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(122);
    expect(highlights.map((h) => snippet.slice(h.start, h.end))).toEqual(["Klagefristen", "klageudvalget"]);
  });

  it("should return the start of the text and no ranges when nothing matches", () => {
    const { snippet, highlights } = buildSnippet("Et ".repeat(200), terms("budget"), 50);
    expect(snippet.endsWith("…")).toBe(true);
    expect(highlights).toEqual([]);
  });

  it("should find ranges in a title", () => {
    expect(matchRanges("Klager over afgørelser", terms("klage"))).toEqual([{ start: 0, end: 6 }]);
  });
  it("should build the same snippet from a text's snippetSource() as from the text", () => {
    const texts = [
      "Sagsbehandlingen starter, når sagsbehandling er bestilt. Alle sagsbehandlinger journaliseres.",
      `${"Lorem ipsum dolor sit amet. ".repeat(30)}Klagefristen er 4 uger, og klagen går til klageudvalget.`,
      "Årsregnskabet og ÅRSREGNSKAB, udlæg og udlaeg, Émile og emile, 250.000 kr og 2024.",
      "",
    ];
    const sets = [
      terms("sagsbehandling"),
      terms("klagefrist", "klageudvalget"),
      terms("årsregnskab", "udlæg", "emile", "250"),
      terms(),
    ];
    for (const text of texts) {
      for (const t of sets) {
        for (const max of [40, 120, 200]) {
          expect(buildSnippet(snippetSource(text), t, max)).toEqual(buildSnippet(text, t, max));
        }
      }
    }
  });
});

describe("SnippetSourceCache", () => {
  it("should work a source out once per article version, and again for a new version", () => {
    const cache = new SnippetSourceCache();
    const v1 = {};
    const first = cache.sourceOf("a", v1, "# Titel\n\nKlagefristen er fire uger.");
    expect(first.plain).toBe("Titel · Klagefristen er fire uger.");
    expect(cache.sourceOf("a", v1, "ignored: the cached version is used")).toBe(first);
    const v2 = {};
    expect(cache.sourceOf("a", v2, "Klagefristen er seks uger.").plain).toBe("Klagefristen er seks uger.");
    expect(cache.size).toBe(1);
  });

  it("should keep at most `kept` articles, dropping the least recently used", () => {
    const cache = new SnippetSourceCache(2);
    const owners = { a: {}, b: {}, c: {} };
    const a = cache.sourceOf("a", owners.a, "alfa");
    cache.sourceOf("b", owners.b, "beta");
    cache.sourceOf("a", owners.a, "alfa"); // a used last: b is the oldest now
    cache.sourceOf("c", owners.c, "gamma");
    expect(cache.size).toBe(2);
    expect(cache.sourceOf("a", owners.a, "alfa")).toBe(a);
    const b = cache.sourceOf("b", owners.b, "beta");
    expect(b.plain).toBe("beta"); // worked out again
  });

  it("should forget an article on delete and everything on clear", () => {
    const cache = new SnippetSourceCache();
    const owner = {};
    const first = cache.sourceOf("a", owner, "alfa");
    cache.delete("a");
    expect(cache.sourceOf("a", owner, "alfa")).not.toBe(first);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
