import { describe, expect, it } from "vitest";
import { formatMessage, isMessageKey } from "./messages";
import {
  ALREADY_RUNNING_STORED_TEXT,
  NOTION_FAILURE_KEYS,
  type NotionFailureReason,
  notionFailureMessageKey,
  notionFailureStoredText,
} from "./notion-failures";

describe("Notion failure reasons", () => {
  const reasons = Object.keys(NOTION_FAILURE_KEYS) as NotionFailureReason[];

  it("should give every reason a catalogue key, and no reason the shape of a key (a stored key is one or the other)", () => {
    for (const reason of reasons) {
      expect(isMessageKey(NOTION_FAILURE_KEYS[reason]), reason).toBe(true);
      expect(isMessageKey(reason), reason).toBe(false);
    }
  });

  it("should store the Danish catalogue text with its parameters, and the refused run's text as it always was", () => {
    expect(notionFailureStoredText("rateLimited", { detail: "429, rate_limited" })).toBe(
      "Notion svarede ikke: for mange forespørgsler, også efter ventetid (429, rate_limited)",
    );
    expect(notionFailureStoredText("notConnected")).toBe("Notion er ikke forbundet");
    expect(notionFailureStoredText("alreadyRunning")).toBe(ALREADY_RUNNING_STORED_TEXT);
    expect(formatMessage(NOTION_FAILURE_KEYS.alreadyRunning, {}, "da")).toBe(
      "En anden synkronisering er i gang",
    );
  });

  it("should read a stored reason as its catalogue key and leave another key as it is", () => {
    expect(notionFailureMessageKey("pageGone")).toBe("notion.syncPageGone");
    expect(notionFailureMessageKey("notion.tokenRequired")).toBe("notion.tokenRequired");
    expect(notionFailureMessageKey("toString")).toBe("toString");
    expect(notionFailureMessageKey(null)).toBeUndefined();
  });
});
