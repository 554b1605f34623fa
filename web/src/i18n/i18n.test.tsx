import { describe, expect, it } from "vitest";
import type { MessageKey, Plural } from "./da";
import { dictionaries, type Language, textFor } from "./i18n";

const forms = (text: string | Plural): string[] =>
  typeof text === "string" ? [text] : [text.one, text.other];
const placeholders = (text: string | Plural): string[] =>
  [...new Set(forms(text).flatMap((form) => [...form.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();

describe("counts in the reader's language (textFor)", () => {
  it("should pick the singular for 1 and the plural otherwise, in both languages", () => {
    expect(textFor("en", "knowledge.resultCount", { n: 1 })).toBe("1 result");
    expect(textFor("en", "knowledge.resultCount", { n: 0 })).toBe("0 results");
    expect(textFor("en", "knowledge.resultCount", { n: 2 })).toBe("2 results");
    expect(textFor("da", "knowledge.articleCount", { n: 1 })).toBe("1 artikel");
    expect(textFor("da", "knowledge.articleCount", { n: 7 })).toBe("7 artikler");
    expect(textFor("en", "admin.stats.gapCount", { n: 1 })).toBe("once");
    expect(textFor("en", "admin.stats.gapCount", { n: 3 })).toBe("3 times");
  });

  it("should keep the spec's Danish texts for every count and give English its singular", () => {
    expect(textFor("da", "admin.users.count", { n: 1 })).toBe("1 brugere");
    expect(textFor("en", "admin.users.count", { n: 1 })).toBe("1 user");
    expect(textFor("da", "admin.stats.views", { n: 1 })).toBe("1 visninger");
    expect(textFor("en", "admin.stats.views", { n: 1 })).toBe("1 view");
    expect(textFor("da", "notion.savedText", { n: 1 })).toBe(
      "1 databaser konfigureret som videnskilder for alle brugere",
    );
    expect(textFor("en", "notion.savedText", { n: 1 })).toBe(
      "1 database configured as knowledge sources for all users",
    );
  });

  it("should show a count with the language's digit grouping", () => {
    expect(textFor("da", "admin.stats.todayMessages", { n: 1234 })).toBe("1.234 beskeder i dag");
    expect(textFor("en", "admin.stats.todayMessages", { n: 1234 })).toBe("1,234 messages today");
  });

  it("should fill the other placeholders of a count's text", () => {
    expect(textFor("en", "admin.stats.messagesSummary", { n: 1, max: 1 })).toBe(
      "1 message in total over the last 30 days, at most 1 on one day.",
    );
  });
});

describe("the two catalogues", () => {
  const keys = Object.keys(dictionaries.da) as MessageKey[];
  it("should have the same keys", () => {
    expect(Object.keys(dictionaries.en).sort()).toEqual([...keys].sort());
  });

  it("should use the same placeholders for every key, and {n} in every count's text", () => {
    const differing = keys.filter((key) => {
      const [da, en] = (["da", "en"] as Language[]).map((l) => placeholders(dictionaries[l][key]));
      return JSON.stringify(da) !== JSON.stringify(en);
    });
    expect(differing).toEqual([]);
    const pluralWithoutN = keys.filter((key) =>
      (["da", "en"] as Language[]).some((l) => {
        const text = dictionaries[l][key];
        return typeof text !== "string" && !placeholders(text).includes("n");
      }),
    );
    expect(pluralWithoutN).toEqual([]);
  });
});
