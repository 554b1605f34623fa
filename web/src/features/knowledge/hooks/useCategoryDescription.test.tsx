import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { I18nContext, type Language, localeOf, makeTranslate } from "../../../i18n/i18n";
import { type CategoryLine, useCategoryDescription } from "./useCategoryDescription";

function Description(props: CategoryLine) {
  return <>{useCategoryDescription()(props)}</>;
}

const render = (language: Language, line: CategoryLine) =>
  renderToStaticMarkup(
    <I18nContext.Provider value={{ language, locale: localeOf(language), t: makeTranslate(language) }}>
      <Description {...line} />
    </I18nContext.Provider>,
  );

describe("useCategoryDescription", () => {
  it("should show a line the server wrote by its key in the user's language", () => {
    const other = { description: "Øvrige artikler", descriptionKey: "categories.other" };
    expect(render("da", other)).toBe("Øvrige artikler");
    expect(render("en", other)).toBe("Other articles");
    expect(render("en", { description: "Hvem gør hvad", descriptionKey: "categories.roles" })).toBe(
      "Who does what: responsibilities, powers and deputies",
    );
  });

  it("should show a description without a key, or with an unknown key, as it came (no matching of Danish text)", () => {
    expect(render("en", { description: "Øvrige artikler", descriptionKey: null })).toBe("Øvrige artikler");
    expect(render("en", { description: "Egen beskrivelse" })).toBe("Egen beskrivelse");
    expect(render("en", { description: "Egen beskrivelse", descriptionKey: "categories.future" })).toBe(
      "Egen beskrivelse",
    );
  });
});
