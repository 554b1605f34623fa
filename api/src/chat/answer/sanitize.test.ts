import { describe, expect, it } from "vitest";
import { escapeInline, HtmlStripper, stripHtml } from "./sanitize";

describe("sanitize", () => {
  it("should remove tags, comments and declarations but keep their text", () => {
    expect(stripHtml('Hej <b>med</b> dig<script src="x.js">alert(1)</script>!')).toBe("Hej med digalert(1)!");
    expect(stripHtml("A<!-- skjult --> B <!DOCTYPE html><?xml version='1.0'?>C")).toBe("A B C");
    expect(stripHtml('<img src=x onerror="alert(1)">Billede')).toBe("Billede");
    expect(stripHtml("linje1<br>linje2<br/>linje3")).toBe("linje1 linje2 linje3");
    expect(stripHtml('<a\nhref="javascript:alert(1)">klik</a>')).toBe("klik");
  });

  it("should keep text that only looks a bit like HTML", () => {
    const text =
      "Hvis a < b og beløbet er <5 år, se <https://borger.dk> eller skriv til <info@firma.dk>; 3<4.";
    expect(stripHtml(text)).toBe(text);
  });

  it("should strip tags split across stream chunks the same way, never emitting a partial tag", () => {
    const text = 'Svar: <div class="x"><script>alert("hej")</script></div> slut <!-- c --> og a < b';
    const whole = stripHtml(text);
    expect(whole).toBe('Svar: alert("hej") slut  og a < b');
    for (let size = 1; size <= 9; size++) {
      const s = new HtmlStripper();
      let out = "";
      for (let i = 0; i < text.length; i += size) {
        out += s.push(text.slice(i, i + size));
        expect(out).not.toMatch(/<[a-z/!]/i);
      }
      out += s.end();
      expect(out).toBe(whole);
    }
  });

  it("should drop an unfinished tag at the end of the stream", () => {
    const s = new HtmlStripper();
    expect(s.push('tekst <img src="x" onerror=')).toBe("tekst ");
    expect(s.end()).toBe("");
  });

  it("should escape Markdown and citation-like characters in inline text", () => {
    expect(escapeInline("Regler [2] for *løn* <i>nu</i>")).toBe("Regler \\[2\\] for \\*løn\\* nu");
  });
});
