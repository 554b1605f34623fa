import { describe, expect, it } from "vitest";
import { CHAT_MESSAGE_MAX_LENGTH, validateChatMessage } from "./chat-message.rules";

describe("chat-message.rules", () => {
  it("should refuse empty and whitespace-only messages", () => {
    for (const content of ["", "   ", "\n\t  \n"]) {
      const r = validateChatMessage(content);
      expect(r).toMatchObject({ ok: false, code: "MESSAGE_EMPTY" });
      if (!r.ok) expect(r.message).toContain("Beskeden er tom");
    }
  });

  it("should refuse non-strings", () => {
    expect(validateChatMessage(undefined)).toMatchObject({ ok: false, code: "MESSAGE_EMPTY" });
    expect(validateChatMessage({ content: "x" })).toMatchObject({ ok: false, code: "MESSAGE_EMPTY" });
  });

  it("should accept exactly the limit and refuse one more, naming the limit in Danish", () => {
    expect(CHAT_MESSAGE_MAX_LENGTH).toBe(8000);
    expect(validateChatMessage("a".repeat(8000))).toEqual({ ok: true, content: "a".repeat(8000) });
    const r = validateChatMessage("a".repeat(8001));
    expect(r).toMatchObject({ ok: false, code: "MESSAGE_TOO_LONG" });
    if (!r.ok) {
      expect(r.message).toContain("højst 8.000 tegn");
      expect(r.message).toContain("8.001 tegn");
    }
  });

  it("should return the trimmed message", () => {
    expect(validateChatMessage("  Hvad er reglerne?\n")).toEqual({ ok: true, content: "Hvad er reglerne?" });
  });
});
