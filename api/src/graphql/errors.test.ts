import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { Errors, GENERIC_ERROR_MESSAGE } from "../errors";
import { formatError } from "./errors";

const wrap = (original: Error) =>
  new GraphQLError(original.message, { originalError: original, path: ["x"] });

describe("formatError", () => {
  it("should give a domain error its Danish message, code, fields and retryAfter", () => {
    const fields = [{ field: "email", message: "Ugyldig email format" }];
    const f = formatError({ message: "ignored" }, wrap(Errors.invalidFields(fields)));
    expect(f).toMatchObject({
      message: "Ugyldig email format",
      extensions: { code: "BAD_USER_INPUT", fields },
    });
    const limited = formatError({ message: "x" }, wrap(Errors.tooManyRequests(90)));
    expect(limited.extensions).toEqual({ code: "TOO_MANY_REQUESTS", retryAfter: 90 });
    expect(limited.message).toBe("For mange forsøg. Prøv igen om 2 minutter.");
  });

  it("should hide unknown errors behind the generic Danish message", () => {
    const f = formatError(
      { message: "connection refused at 10.0.0.5" },
      wrap(new Error("connection refused at 10.0.0.5")),
    );
    expect(f).toMatchObject({
      message: GENERIC_ERROR_MESSAGE,
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    });
    expect(JSON.stringify(f)).not.toContain("10.0.0.5");
  });

  it("should turn graphql's own request errors into BAD_USER_INPUT with a Danish prefix", () => {
    const f = formatError(
      {
        message: 'Cannot query field "x" on type "Query".',
        extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
      },
      new GraphQLError('Cannot query field "x" on type "Query".'),
    );
    expect(f).toMatchObject({
      message: 'Ugyldig forespørgsel: Cannot query field "x" on type "Query".',
      extensions: { code: "BAD_USER_INPUT" },
    });
  });
});
