import { formatMessage, messages } from "@vidensbank/shared";
import { describe, expect, it } from "vitest";
import { CATEGORY_STYLES, categoryStyle, compareCategories, DEFAULT_CATEGORY_STYLE } from "./categories";

describe("categoryStyle", () => {
  it("should give each of the four spec categories its own icon, colour and Danish description", () => {
    expect(Object.keys(CATEGORY_STYLES)).toEqual(["Økonomi", "Procedurer", "Roller", "Sagsbehandling"]);
    const styles = Object.values(CATEGORY_STYLES);
    expect(new Set(styles.map((s) => s.icon)).size).toBe(4);
    expect(new Set(styles.map((s) => s.color)).size).toBe(4);
    for (const s of styles) {
      expect(s.icon).toMatch(/^[A-Z][A-Za-z]+$/); // an MUI icon component name
      expect(s.color).toMatch(/^#[0-9a-f]{6}$/i);
      expect(s.description.length).toBeGreaterThan(10);
      expect(s.description).not.toContain("\n");
    }
  });

  it("should give every line a catalogue key whose Danish text is the description", () => {
    for (const s of [...Object.values(CATEGORY_STYLES), DEFAULT_CATEGORY_STYLE]) {
      expect(s.description, s.descriptionKey).toBe(formatMessage(s.descriptionKey, {}, "da"));
      expect(messages[s.descriptionKey].en).not.toBe(s.description);
    }
    expect(DEFAULT_CATEGORY_STYLE).toMatchObject({
      description: "Øvrige artikler",
      descriptionKey: "categories.other",
    });
  });

  it("should give any other category (also prototype names) the default style", () => {
    for (const name of ["IT", "økonomi", "", "constructor", "__proto__", "toString"]) {
      expect(categoryStyle(name), name).toEqual(DEFAULT_CATEGORY_STYLE);
    }
    expect(categoryStyle("Roller")).toBe(CATEGORY_STYLES.Roller);
  });
});

describe("compareCategories", () => {
  it("should put the known categories first in their order, then the others alphabetically (Danish)", () => {
    const sorted = [
      "Økonomi",
      "Åbenhed",
      "IT",
      "Sagsbehandling",
      "Arkiv",
      "Roller",
      "Procedurer",
      "Ørsted",
    ].sort(compareCategories);
    expect(sorted).toEqual([
      "Økonomi",
      "Procedurer",
      "Roller",
      "Sagsbehandling",
      "Arkiv",
      "IT",
      "Ørsted",
      "Åbenhed",
    ]);
  });
});
