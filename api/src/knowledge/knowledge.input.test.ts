import { formatMessage } from "@vidensbank/shared";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { containsMarkup } from "../markdown/sanitize";
import {
  clamp,
  isObjectIdString,
  MAX_SEARCH_INPUT,
  readCategory,
  readQuery,
  validateArticleInput,
} from "./knowledge.input";

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("accepted");
}

describe("validateArticleInput", () => {
  it("should store every field without HTML, whatever door the article came through", () => {
    const clean = validateArticleInput({
      title: "<scr<script>ipt>alert(1)</script> Ferie",
      content: "# Ferie\n\n<<img src=x onerror=alert(1)>> Tekst <b>fed</b>\n\n&lt;script&gt;",
      category: "<svg/onload=alert(1)>Roller",
      subcategory: "<i>Under</i>",
      tags: ["<img src=x onerror=1>", "ok"],
    });
    for (const value of [
      clean.title,
      clean.content,
      clean.category,
      clean.subcategory ?? "",
      ...clean.tags,
    ]) {
      expect(containsMarkup(value)).toBe(false);
      expect(value).not.toMatch(/<script|<img|onerror=[^\u200b]*>/i);
    }
    expect(clean.content).toContain("# Ferie");
  });

  it("should trim, drop a blank subcategory, and trim and de-duplicate tags", () => {
    expect(
      validateArticleInput({
        title: "  Titel ",
        content: "  Tekst med luft  ",
        category: " Roller ",
        subcategory: "  ",
        tags: [" a ", "a", "", "b"],
      }),
    ).toEqual({
      title: "Titel",
      content: "  Tekst med luft  ", // the body is kept as written
      category: "Roller",
      subcategory: null,
      tags: ["a", "b"],
    });
  });

  it("should name every wrong field at once, with a Danish message each, as BAD_USER_INPUT", () => {
    const err = refusal(() =>
      validateArticleInput({
        title: "x".repeat(201),
        content: " ",
        category: "y".repeat(101),
        subcategory: "z".repeat(101),
        tags: Array.from({ length: 31 }, (_, i) => `t${i}`),
      }),
    );
    expect(err.code).toBe("BAD_USER_INPUT");
    expect(err.fields).toEqual([
      { field: "title", message: formatMessage("knowledge.titleTooLong") },
      { field: "content", message: formatMessage("knowledge.contentRequired") },
      { field: "category", message: formatMessage("knowledge.categoryTooLong") },
      { field: "subcategory", message: formatMessage("knowledge.subcategoryTooLong") },
      { field: "tags", message: formatMessage("knowledge.tagsInvalid") },
    ]);
    expect(err.message).toBe(formatMessage("knowledge.titleTooLong"));
  });

  it("should refuse missing fields, non-string values and over-long content and tags", () => {
    const fields = (input: unknown) =>
      refusal(() => validateArticleInput(input as never)).fields?.map((f) => f.message);
    expect(fields({})).toEqual([
      formatMessage("knowledge.titleRequired"),
      formatMessage("knowledge.contentRequired"),
      formatMessage("knowledge.categoryRequired"),
    ]);
    expect(fields({ title: 1, content: ["x"], category: { $ne: null } })).toEqual([
      formatMessage("knowledge.titleRequired"),
      formatMessage("knowledge.contentRequired"),
      formatMessage("knowledge.categoryRequired"),
    ]);
    const ok = { title: "T", content: "C", category: "K" };
    expect(fields({ ...ok, content: "x".repeat(200_001) })).toEqual([
      formatMessage("knowledge.contentTooLong"),
    ]);
    expect(fields({ ...ok, tags: ["x".repeat(51)] })).toEqual([formatMessage("knowledge.tagsInvalid")]);
    expect(fields({ ...ok, tags: "a,b" })).toEqual([formatMessage("knowledge.tagsInvalid")]);
    expect(validateArticleInput({ ...ok, tags: null }).tags).toEqual([]);
  });
});

describe("readQuery and readCategory", () => {
  it("should take text up to MAX_SEARCH_INPUT characters and refuse anything else with the field named", () => {
    expect(readQuery("")).toBe("");
    expect(readQuery("x".repeat(MAX_SEARCH_INPUT))).toHaveLength(MAX_SEARCH_INPUT);
    for (const [q, message] of [
      ["x".repeat(MAX_SEARCH_INPUT + 1), formatMessage("knowledge.queryTooLong", { max: MAX_SEARCH_INPUT })],
      [{ $ne: null }, formatMessage("knowledge.queryNotText")],
      [["a"], formatMessage("knowledge.queryNotText")],
      [undefined, formatMessage("knowledge.queryNotText")],
    ] as const) {
      expect(refusal(() => readQuery(q)).fields).toEqual([{ field: "query", message }]);
    }
  });

  it("should read a category filter: none when absent or blank, trimmed, refused when not short text", () => {
    for (const c of [undefined, null, "", "   "]) expect(readCategory(c)).toBeUndefined();
    expect(readCategory(" IT ")).toBe("IT");
    for (const c of ["x".repeat(201), 7, { $gt: "" }]) {
      expect(refusal(() => readCategory(c)).fields).toEqual([
        { field: "category", message: formatMessage("knowledge.categoryInvalid") },
      ]);
    }
  });
});

describe("clamp and isObjectIdString", () => {
  it("should clamp to whole numbers within bounds, with a fallback for non-numbers", () => {
    expect(clamp(5.9, 1, 10, 3)).toBe(5);
    expect(clamp(-4, 1, 10, 3)).toBe(1);
    expect(clamp(1e9, 1, 10, 3)).toBe(10);
    for (const n of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY])
      expect(clamp(n, 1, 10, 3)).toBe(3);
  });

  it("should accept only 24 hex digits", () => {
    expect(isObjectIdString("0123456789abcdefABCDEF01")).toBe(true);
    for (const id of ["123456789012", "0123456789abcdef0123456g", "", 42, null, { $ne: null }]) {
      expect(isObjectIdString(id), String(id)).toBe(false);
    }
  });
});
