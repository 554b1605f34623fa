import { describe, expect, it } from "vitest";
import { articleHref, headingAnchor } from "./anchors";

describe("heading anchors", () => {
  it("should keep Danish letters and join words with '-'", () => {
    expect(headingAnchor("Frister for høringssvar")).toBe("h-frister-for-høringssvar");
    expect(headingAnchor("  Trin 2: Godkendelse (økonomi)  ")).toBe("h-trin-2-godkendelse-økonomi");
  });

  it("should give no anchor for a heading without letters or digits", () => {
    expect(headingAnchor("— !")).toBe("");
  });

  it("should link a citation to the deepest heading of its path", () => {
    expect(articleHref("abc", ["Rejser", "Kørsel i egen bil"])).toBe(
      "/knowledge?article=abc#h-kørsel-i-egen-bil",
    );
    expect(articleHref("abc")).toBe("/knowledge?article=abc");
  });
});
