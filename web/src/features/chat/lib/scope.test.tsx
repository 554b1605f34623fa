import { describe, expect, it } from "vitest";
import { makeTranslate } from "../../../i18n/i18n";
import {
  ALL_SCOPE,
  articlesScope,
  categoryScope,
  MAX_SCOPE_ARTICLES,
  scopeInput,
  scopeLabel,
  typedHash,
  withArticle,
  withoutArticle,
  withoutScopeNote,
} from "./scope";

describe("chat: scope of a question", () => {
  it("should leave the server's scope line out of the answer's text (the badge says it), in either language", () => {
    expect(withoutScopeNote("Svar [1].\n\nSøgt i: Kategori: Økonomi")).toBe("Svar [1].");
    expect(withoutScopeNote("Answer [1].\n\nSearched in: Category: Økonomi")).toBe("Answer [1].");
    // only a last paragraph of its own that starts like the line
    expect(withoutScopeNote("Søgt i: Kategori: Økonomi")).toBe("Søgt i: Kategori: Økonomi");
    expect(withoutScopeNote("Svar.\n\nSøgt i: x\nmere tekst")).toBe("Svar.\n\nSøgt i: x\nmere tekst");
    expect(withoutScopeNote("Svar.\n\nJeg har søgt i: arkivet")).toBe("Svar.\n\nJeg har søgt i: arkivet");
  });

  it("should open the picker only for a # typed at the start of a word, and take the # out", () => {
    expect(typedHash("", "#", 1)).toBe("");
    expect(typedHash("Hvem ", "Hvem #", 6)).toBe("Hvem ");
    expect(typedHash("ab", "a#b", 2)).toBeNull(); // inside a word
    expect(typedHash("Hvem", "Hvem#", 5)).toBeNull(); // right after a word
    expect(typedHash("", "#x", 2)).toBeNull(); // a paste, not one keystroke
  });

  it("should add articles up to the bound, remove them, and fall back to all articles", () => {
    let scope = withArticle(categoryScope("Økonomi"), { id: "a", title: "A" });
    expect(scopeInput(scope)).toEqual({ kind: "ARTICLES", articleIds: ["a"] });
    scope = withArticle(scope, { id: "a", title: "A" });
    expect(scope.articles).toHaveLength(1);
    let full = articlesScope(
      Array.from({ length: MAX_SCOPE_ARTICLES }, (_, i) => ({ id: `x${i}`, title: "" })),
    );
    full = withArticle(full, { id: "extra", title: "" });
    expect(full.articles).toHaveLength(MAX_SCOPE_ARTICLES);
    expect(withoutArticle(scope, "a")).toEqual(ALL_SCOPE);
  });

  it("should label the scope in Danish and English", () => {
    const da = makeTranslate("da");
    const en = makeTranslate("en");
    expect(scopeLabel(categoryScope("Økonomi"), da)).toBe("Kategori: Økonomi");
    expect(scopeLabel(articlesScope([{ id: "a", title: "Udlæg" }]), en)).toBe("Article: Udlæg");
    expect(scopeLabel(ALL_SCOPE, da)).toBe("Alle artikler");
  });
});
