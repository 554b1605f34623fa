import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { breakableEmail } from "./BreakableEmail";

const render = (value: string) => renderToStaticMarkup(<span>{breakableEmail(value)}</span>);

describe("breakableEmail", () => {
  it("should offer a line break right after the @ and keep the text as it was", () => {
    expect(render("karen@minksekretariatet.dk")).toBe("<span>karen@<wbr/>minksekretariatet.dk</span>");
  });

  it("should leave a value without an @ (a username) alone", () => {
    expect(render("admin")).toBe("<span>admin</span>");
  });
});
