import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { breakableEmail, emailMetaLine } from "./BreakableEmail";

const render = (value: string) => renderToStaticMarkup(<span>{breakableEmail(value)}</span>);

describe("breakableEmail", () => {
  it("should offer a line break right after the @ and keep the text as it was", () => {
    expect(render("karen@minksekretariatet.dk")).toBe("<span>karen@<wbr/>minksekretariatet.dk</span>");
  });

  it("should leave a value without an @ (a username) alone", () => {
    expect(render("admin")).toBe("<span>admin</span>");
  });
});

describe("emailMetaLine", () => {
  it("should join the e-mail and the parts there are with ' · ', the e-mail breakable after its @", () => {
    expect(
      renderToStaticMarkup(<span>{emailMetaLine("a@b.dk", "27/11/2026 16:16", "", "lige nu")}</span>),
    ).toBe("<span>a@<wbr/>b.dk · 27/11/2026 16:16 · lige nu</span>");
  });

  it("should show the parts alone when there is no e-mail, and the e-mail alone when there are no parts", () => {
    expect(renderToStaticMarkup(<span>{emailMetaLine(null, "27/11/2026 16:16", "lige nu")}</span>)).toBe(
      "<span>27/11/2026 16:16 · lige nu</span>",
    );
    expect(renderToStaticMarkup(<span>{emailMetaLine("a@b.dk", "")}</span>)).toBe(
      "<span>a@<wbr/>b.dk</span>",
    );
  });
});
