import { formatMessage, messages, placeholdersOf } from "@vidensbank/shared";
import { describe, expect, it } from "vitest";
import {
  ACTIVITY_PARAM_MAX_LENGTH,
  ACTIVITY_PARAMS_MAX,
  activityKeysSaying,
  activityMessageKeys,
  activityText,
} from "./activity.messages";

describe("activityText", () => {
  it("should make the description the Danish text of the key with the stored parameters", () => {
    expect(activityText({ key: "log.search", params: { name: "Anna", query: "moms" } })).toEqual({
      description: 'Anna søgte efter "moms"',
      messageKey: "log.search",
      messageParams: { name: "Anna", query: "moms" },
    });
    expect(activityText({ key: "log.chat" })).toEqual({
      description: "Bruger startede en ny chat",
      messageKey: "log.chat",
      messageParams: {},
    });
  });

  it("should store only the key's parameters, texts cut to the bound (whole characters) and numbers as they are", () => {
    const long = `${"ø".repeat(ACTIVITY_PARAM_MAX_LENGTH - 1)}😀😀`;
    const t = activityText({
      key: "log.notionSync",
      params: { pages: 3, failed: 0, removed: Number.NaN, name: long, other: "x" },
    });
    expect(t.messageParams).toEqual({ pages: 3, failed: 0, removed: "NaN" });
    const cut = activityText({ key: "log.login", params: { name: long } }).messageParams.name as string;
    expect([...cut]).toHaveLength(ACTIVITY_PARAM_MAX_LENGTH);
    expect(cut.endsWith("ø…")).toBe(true);
  });

  it("should keep a parameter's text literal (markup and placeholders are data)", () => {
    const query = "<img src=x onerror=alert(1)> {name} $&";
    expect(activityText({ key: "log.search", params: { name: "A", query } }).description).toBe(
      `A søgte efter "${query}"`,
    );
  });
});

describe("the log.* catalogue entries", () => {
  it("should each have at most ACTIVITY_PARAMS_MAX placeholders, text only in both languages", () => {
    const keys = activityMessageKeys();
    expect(keys.length).toBeGreaterThanOrEqual(20);
    for (const key of keys) {
      expect(placeholdersOf(messages[key].da).length, key).toBeLessThanOrEqual(ACTIVITY_PARAMS_MAX);
      expect(formatMessage(key, {}, "en"), key).not.toMatch(/<|>/);
    }
  });
});

describe("activityKeysSaying", () => {
  it("should find the keys whose text in either language says the search in its own words", () => {
    expect(activityKeysSaying("SIGNED IN")).toEqual(["log.login"]);
    expect(activityKeysSaying("loggede ind")).toEqual(["log.login"]);
    expect(activityKeysSaying("searched for")).toEqual(["log.search"]);
  });

  it("should never match a placeholder's name or a search spanning a value", () => {
    expect(activityKeysSaying("name")).toEqual([]);
    expect(activityKeysSaying("{name} signed in")).toEqual([]);
    expect(activityKeysSaying("   ")).toEqual([]);
  });
});

describe("activity texts in English", () => {
  it("should read right for a count of 1 (each count after its word; the catalogue has no plural forms)", () => {
    expect(formatMessage("log.notionSync", { pages: 1, failed: 1, removed: 0 }, "en")).toBe(
      "Notion synced — pages: 1, failed: 1, removed: 0",
    );
    expect(formatMessage("log.notionConfig", { count: 1 }, "en")).toBe(
      "Databases set up as knowledge sources for all users: 1",
    );
    expect(formatMessage("log.notionConfig", { count: 1 }, "da")).toBe(
      "1 databaser konfigureret som videnskilder for alle brugere",
    );
  });
});
