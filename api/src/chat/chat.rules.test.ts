import { formatMessage } from "@vidensbank/shared";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { SESSION_TITLE_MAX_LENGTH } from "./answer";
import {
  cleanFeedback,
  cleanSearchQuery,
  cleanTitle,
  FEEDBACK_COMMENT_MAX_LENGTH,
  objectId,
  SEARCH_QUERY_MAX_LENGTH,
  userOid,
} from "./chat.rules";

/** The AppError `fn` throws (fails the test when it throws nothing or something else). */
function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("nothing thrown");
}

describe("chat.rules", () => {
  it("should collapse whitespace in a title and allow exactly the limit", () => {
    expect(cleanTitle("  Ferie \n\t regler  ", false)).toBe("Ferie regler");
    const longest = "x".repeat(SESSION_TITLE_MAX_LENGTH);
    expect(cleanTitle(longest, false)).toBe(longest);
    const e = thrown(() => cleanTitle(`${longest}x`, false));
    expect(e.code).toBe("BAD_USER_INPUT");
    expect(e.fields).toEqual([{ field: "title", message: formatMessage("chat.titleTooLong", { max: 60 }) }]);
    expect(e.message).toBe(`Titlen må højst være ${SESSION_TITLE_MAX_LENGTH} tegn`);
  });

  it("should give an empty title the default when creating, and refuse it when renaming", () => {
    expect(cleanTitle("   ", true)).toBeNull();
    const e = thrown(() => cleanTitle("   ", false));
    expect(e.fields).toEqual([{ field: "title", message: formatMessage("chat.titleEmpty") }]);
    expect(thrown(() => cleanTitle(42, true)).code).toBe("BAD_USER_INPUT");
  });

  it("should trim a search and refuse one over the limit", () => {
    expect(cleanSearchQuery("  databrud ")).toBe("databrud");
    expect(cleanSearchQuery("   ")).toBe("");
    expect(cleanSearchQuery(` ${"a".repeat(SEARCH_QUERY_MAX_LENGTH)} `)).toHaveLength(
      SEARCH_QUERY_MAX_LENGTH,
    );
    const e = thrown(() => cleanSearchQuery("a".repeat(SEARCH_QUERY_MAX_LENGTH + 1)));
    expect(e.fields).toEqual([{ field: "query", message: formatMessage("chat.searchTooLong") }]);
    expect(thrown(() => cleanSearchQuery(undefined)).code).toBe("BAD_USER_INPUT");
  });

  it("should accept up/down feedback with a trimmed comment (empty as null) up to the limit", () => {
    expect(cleanFeedback("up", "  godt svar ")).toEqual({ rating: "up", comment: "godt svar" });
    expect(cleanFeedback("down", "   ")).toEqual({ rating: "down", comment: null });
    expect(cleanFeedback("down", undefined)).toEqual({ rating: "down", comment: null });
    expect(cleanFeedback("up", "k".repeat(FEEDBACK_COMMENT_MAX_LENGTH)).comment).toHaveLength(2_000);
    const long = thrown(() => cleanFeedback("up", "k".repeat(FEEDBACK_COMMENT_MAX_LENGTH + 1)));
    expect(long.fields).toEqual([{ field: "comment", message: formatMessage("chat.feedbackTooLong") }]);
    const rating = thrown(() => cleanFeedback("sideways", null));
    expect(rating.fields).toEqual([{ field: "rating", message: formatMessage("chat.feedbackRating") }]);
  });

  it("should read only 24-hex ids, and a user id that is none as not signed in", () => {
    const id = "0123456789abcdef01234567";
    expect(String(objectId(id))).toBe(id);
    for (const bad of ["", "x".repeat(24), "0123456789abcdef0123456", "0123456789abcdef012345678"]) {
      expect(objectId(bad)).toBeNull();
    }
    expect(objectId({ $gt: "" } as unknown as string)).toBeNull();
    expect(String(userOid(id))).toBe(id);
    expect(thrown(() => userOid("nobody")).code).toBe("UNAUTHENTICATED");
  });

  it("should name the limit in the too-many-answers message", () => {
    expect(formatMessage("chat.tooManyAnswers", { count: 2 })).toContain("Du har allerede 2 svar undervejs");
  });
});
