import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { I18nContext, type Language, localeOf, makeTranslate } from "../../../i18n/i18n";
import { useCategoryDescription } from "./useCategoryDescription";

function Description({ name, description }: { name: string; description: string }) {
  return <>{useCategoryDescription()({ name, description })}</>;
}

const render = (language: Language, name: string, description: string) =>
  renderToStaticMarkup(
    <I18nContext.Provider value={{ language, locale: localeOf(language), t: makeTranslate(language) }}>
      <Description name={name} description={description} />
    </I18nContext.Provider>,
  );

describe("useCategoryDescription", () => {
  it("should show the server's default line for a category without its own style in the user's language", () => {
    expect(render("da", "IT", "Øvrige artikler")).toBe("Øvrige artikler");
    expect(render("en", "IT", "Øvrige artikler")).toBe("Other articles");
  });

  it("should translate a known category and keep any other server line as it is", () => {
    expect(render("en", "Roller", "Hvem gør hvad: ansvar, beføjelser og stedfortrædere")).toBe(
      "Who does what: responsibilities, powers and deputies",
    );
    expect(render("en", "IT", "Egen beskrivelse")).toBe("Egen beskrivelse");
  });
});
