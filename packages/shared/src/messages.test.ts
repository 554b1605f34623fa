import { describe, expect, it } from "vitest";
import {
  formatMessage,
  isMessageKey,
  type MessageKey,
  messageSays,
  messages,
  messageText,
  placeholdersOf,
} from "./messages";

describe("messages", () => {
  const keys = Object.keys(messages) as MessageKey[];

  it("should have a Danish and an English text for every key", () => {
    expect(keys.length).toBeGreaterThan(100);
    for (const key of keys) {
      const entry = messages[key] as { da?: unknown; en?: unknown };
      expect(typeof entry.da === "string" && entry.da.trim().length > 0, `${key}.da`).toBe(true);
      expect(typeof entry.en === "string" && entry.en.trim().length > 0, `${key}.en`).toBe(true);
      expect(Object.keys(entry).sort(), key).toEqual(["da", "en"]);
    }
  });

  it("should use the same placeholders in both languages", () => {
    for (const key of keys) {
      expect(placeholdersOf(messages[key].en), key).toEqual(placeholdersOf(messages[key].da));
    }
  });

  it("should name keys by feature (feature.name)", () => {
    for (const key of keys) expect(key).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
  });

  it("should fill placeholders in the given language", () => {
    expect(formatMessage("auth.welcome", { name: "Anna" }, "da")).toBe("Velkommen tilbage, Anna!");
    expect(formatMessage("auth.welcome", { name: "Anna" }, "en")).toBe("Welcome back, Anna!");
    expect(formatMessage("rules.emailDomain", { domain: "minksekretariatet.dk" })).toBe(
      "Kun @minksekretariatet.dk email adresser er tilladt",
    );
  });

  it("should default to Danish and to no parameters", () => {
    expect(formatMessage("errors.notFound")).toBe("Ikke fundet");
    expect(messageText({ key: "errors.notFound" }, "en")).toBe("Not found");
  });

  it("should format {n:number} for the locale and {n} as it is", () => {
    const params = { max: 8000, length: 12345 };
    expect(formatMessage("chat.messageTooLong", params, "da")).toContain("højst 8.000 tegn");
    expect(formatMessage("chat.messageTooLong", params, "da")).toContain("12.345 tegn");
    expect(formatMessage("chat.messageTooLong", params, "en")).toContain("at most 8,000 characters");
    expect(formatMessage("graphql.tokens", { max: 5000 }, "da")).toBe(
      "Forespørgslen er for lang (højst 5000 symboler)",
    );
  });

  it("should leave a placeholder without a parameter visible and not read inherited names", () => {
    expect(formatMessage("auth.welcome", {}, "en")).toBe("Welcome back, {name}!");
    expect(formatMessage("auth.welcome", Object.create({ name: "x" }), "en")).toBe("Welcome back, {name}!");
  });

  it("should insert parameters literally (no second round of placeholders)", () => {
    expect(formatMessage("auth.welcome", { name: "{name}$&" }, "da")).toBe("Velkommen tilbage, {name}$&!");
  });

  it("should tell keys from other texts", () => {
    expect(isMessageKey("errors.notFound")).toBe(true);
    expect(isMessageKey("Ikke fundet")).toBe(false);
    expect(isMessageKey("toString")).toBe(false);
    expect(isMessageKey(undefined)).toBe(false);
  });

  it("should keep websocket close reasons within 123 bytes", () => {
    for (const key of ["ws.tooManySockets", "ws.originRefused"] as const) {
      for (const locale of ["da", "en"] as const) {
        expect(
          Buffer.byteLength(formatMessage(key, { max: 9999 }, locale)),
          `${key}.${locale}`,
        ).toBeLessThanOrEqual(123);
      }
    }
  });
});

describe("messageSays", () => {
  it("should find a text's own words in either language, case-insensitive", () => {
    expect(messageSays("log.login", "SIGNED IN")).toBe(true);
    expect(messageSays("log.login", "loggede ind")).toBe(true);
    expect(messageSays("log.login", "søgte")).toBe(false);
  });

  it("should never match a placeholder, a search spanning one, or nothing", () => {
    expect(messageSays("log.login", "name")).toBe(false);
    expect(messageSays("log.login", "{name} signed in")).toBe(false);
    expect(messageSays("log.login", "  ")).toBe(false);
  });
});
