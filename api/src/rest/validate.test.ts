import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { MAX_FIELD_LENGTH, readBody, readQueryString } from "./validate";

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected an error");
}

describe("readBody", () => {
  const spec = { email: "string", note: "string?", flag: "boolean?" } as const;

  it("should pass strings and booleans through and read a missing required string as empty", () => {
    expect(readBody({ email: "a@b.dk", note: "x", flag: true, extra: { $ne: 1 } }, spec)).toEqual({
      email: "a@b.dk",
      note: "x",
      flag: true,
    });
    expect(readBody({}, spec)).toEqual({ email: "", note: undefined, flag: undefined });
  });

  it.each([
    ["an operator object", { email: { $ne: null } }, 'Feltet "email" skal være tekst'],
    ["a number", { email: 1 }, 'Feltet "email" skal være tekst'],
    ["an array", { email: ["a"] }, 'Feltet "email" skal være tekst'],
    ["null in a required field", { email: null }, 'Feltet "email" skal være tekst'],
    ["a string flag", { email: "a", flag: "true" }, 'Feltet "flag" skal være sand eller falsk'],
    ["an over-long string", { email: "x".repeat(MAX_FIELD_LENGTH + 1) }, 'Feltet "email" er for langt'],
  ])("should refuse %s with BAD_USER_INPUT naming the field", (_label, body, message) => {
    const e = errorOf(() => readBody(body, spec));
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe("BAD_USER_INPUT");
    expect(e.message).toBe(message);
  });

  it.each([[null], [[1, 2]], ["text"], [42], [undefined]])(
    "should refuse a body that is not an object (%j)",
    (body) => {
      expect(errorOf(() => readBody(body, spec)).message).toBe(
        "Ugyldig forespørgsel: forventede et JSON-objekt",
      );
    },
  );

  it("should accept null for an optional string", () => {
    expect(readBody({ email: "a", note: null }, spec).note).toBeUndefined();
  });
});

describe("readQueryString", () => {
  it("should read one string and refuse repeated or nested parameters", () => {
    expect(readQueryString({ token: "abc" }, "token")).toBe("abc");
    expect(readQueryString({}, "token")).toBeUndefined();
    expect(errorOf(() => readQueryString({ token: ["a", "b"] }, "token")).code).toBe("BAD_USER_INPUT");
    expect(errorOf(() => readQueryString({ token: { $ne: "" } }, "token")).code).toBe("BAD_USER_INPUT");
  });
});
