import { describe, expect, it } from "vitest";
import { escapeTags, REFERENCE_WINDOW, TAG_BREAK, TagEscaper } from "./html-escape";

describe("html-escape", () => {
  it("should break every `<` that could start markup and leave all other text as it is", () => {
    expect(escapeTags("<b>x</b> <!-- c --> <?pi?> <&#115;>")).toBe(
      `<${TAG_BREAK}b>x<${TAG_BREAK}/b> <${TAG_BREAK}!-- c --> <${TAG_BREAK}?pi?> <${TAG_BREAK}&#115;>`,
    );
    const text = "a < b, 3 > 2, <5 år, <æ, R&D, &amp; &#230; æøå\n";
    expect(escapeTags(text)).toBe(text);
    expect(escapeTags(escapeTags("<b>"))).toBe(escapeTags("<b>"));
  });

  it("should give the same text however the stream is split", () => {
    const text = `x<b &lt;i &#60;/ &#x3c;! &lt &#${"0".repeat(REFERENCE_WINDOW)}60; <`;
    const whole = escapeTags(text);
    for (let size = 1; size <= 7; size++) {
      const e = new TagEscaper();
      let out = "";
      for (let i = 0; i < text.length; i += size) out += e.push(text.slice(i, i + size));
      expect(out + e.end()).toBe(whole);
    }
    expect(whole).not.toMatch(/<[a-z/!?&]/i);
    expect(whole).toContain("&amp;#000"); // a numeric reference longer than the window is written as text
  });

  it("should hold back only a `<` or a possible reference to `<`", () => {
    const e = new TagEscaper();
    expect(e.push("Ferie og løn, R&D ")).toBe("Ferie og løn, R&D ");
    expect(e.push("a <")).toBe("a ");
    expect(e.push(" b &l")).toBe("< b ");
    expect(e.push("t;x")).toBe(`<${TAG_BREAK}x`);
    expect(e.end()).toBe("");
  });
});
