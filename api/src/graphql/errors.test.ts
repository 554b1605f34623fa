import { GraphQLError } from "graphql";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Errors, GENERIC_ERROR_MESSAGE } from "../errors";
import { logger } from "../logger";
import { formatError, formatGraphQLError, setHideSchemaDetails } from "./errors";

const wrap = (original: Error) =>
  new GraphQLError(original.message, { originalError: original, path: ["x"] });

describe("formatError", () => {
  it("should give a domain error its Danish message, code, fields, retryAfter and message key", () => {
    const f = formatError(
      { message: "ignored" },
      wrap(Errors.invalidFields([{ field: "email", key: "rules.emailDomain", params: { domain: "x.dk" } }])),
    );
    expect(f).toEqual({
      message: "Kun @x.dk email adresser er tilladt",
      extensions: {
        code: "BAD_USER_INPUT",
        fields: [{ field: "email", message: "Kun @x.dk email adresser er tilladt" }],
        messageKey: "rules.emailDomain",
        messageParams: { domain: "x.dk" },
        fieldMessageKeys: [
          { field: "email", messageKey: "rules.emailDomain", messageParams: { domain: "x.dk" } },
        ],
      },
    });
    const limited = formatError({ message: "x" }, wrap(Errors.tooManyRequests(90)));
    expect(limited.extensions).toEqual({
      code: "TOO_MANY_REQUESTS",
      retryAfter: 90,
      messageKey: "errors.tooManyAttemptsMinutes",
      messageParams: { minutes: 2 },
    });
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

describe("formatError without schema details (production)", () => {
  afterEach(() => {
    setHideSchemaDetails(true);
  });

  it.each([
    [
      'Cannot query field "mee" on type "Query". Did you mean "me"?',
      'Cannot query field "mee" on type "Query".',
    ],
    [
      'Unknown argument "limt" on field "Query.activityLogs". Did you mean "limit"?',
      'Unknown argument "limt" on field "Query.activityLogs".',
    ],
    [
      'Cannot query field "titel" on type "KnowledgeArticle". Did you mean "title", "tags", or "id"?',
      'Cannot query field "titel" on type "KnowledgeArticle".',
    ],
    [
      'Value "drak" does not exist in "Theme" enum. Did you mean the enum value "dark"?',
      'Value "drak" does not exist in "Theme" enum.',
    ],
  ])("should drop the suggestion from %s", (message, without) => {
    const f = formatError(
      { message, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } },
      new GraphQLError(message),
    );
    expect(f.message).toBe(`Ugyldig forespørgsel: ${without}`);
  });

  it("should drop it from our own Danish refusals of variables, and over graphql-ws", () => {
    const coercion =
      'Ugyldigt input: Variable "$i" got invalid value { themee: "dark" }; Field "themee" is not defined by type "PreferencesInput". Did you mean "theme"?';
    const f = formatError(
      { message: coercion, extensions: { code: "BAD_USER_INPUT" } },
      new GraphQLError(coercion),
    );
    expect(f.message).not.toContain("Did you mean");
    expect(f.message).not.toContain('"theme"');
    const ws = formatGraphQLError(
      new GraphQLError('Cannot query field "mee" on type "Query". Did you mean "me"?'),
    );
    expect(ws).toMatchObject({
      message: 'Ugyldig forespørgsel: Cannot query field "mee" on type "Query".',
      extensions: { code: "BAD_USER_INPUT" },
    });
  });

  it("should keep suggestions where schema details are shown (development and tests)", () => {
    setHideSchemaDetails(false);
    const ws = formatGraphQLError(
      new GraphQLError('Cannot query field "mee" on type "Query". Did you mean "me"?'),
    );
    expect(ws.message).toContain('Did you mean "me"?');
  });
});

describe("formatError for a request Apollo refused (a client's mistake)", () => {
  it("should give a 4xx refusal without a code BAD_USER_INPUT in Danish, and not log it as a failure", () => {
    const logged = vi.spyOn(logger, "error");
    try {
      // as Apollo makes it for a persisted-query hash that does not match (its formatted code is filled in)
      const refused = new GraphQLError("provided sha does not match query", {
        extensions: { http: { status: 400 } },
      });
      const f = formatError(
        { message: refused.message, extensions: { code: "INTERNAL_SERVER_ERROR" } },
        refused,
      );
      expect(f).toEqual({
        message: "Ugyldig forespørgsel: provided sha does not match query",
        extensions: {
          code: "BAD_USER_INPUT",
          messageKey: "graphql.invalidRequest",
          messageParams: { detail: "provided sha does not match query" },
        },
      });
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("should still hide and log an unexpected error that carries a 5xx status", () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    try {
      const broken = new GraphQLError("db down", { extensions: { http: { status: 500 } } });
      const f = formatError({ message: "db down", extensions: { code: "INTERNAL_SERVER_ERROR" } }, broken);
      expect(f.extensions?.code).toBe("INTERNAL_SERVER_ERROR");
      expect(logged).toHaveBeenCalledOnce();
    } finally {
      logged.mockRestore();
    }
  });

  it("should say in Danish that a document has too many tokens", () => {
    const message = "Syntax Error: Document contains more than 5000 tokens. Parsing aborted.";
    const f = formatError(
      { message, extensions: { code: "GRAPHQL_PARSE_FAILED" } },
      new GraphQLError(message),
    );
    expect(f).toEqual({
      message: "Forespørgslen er for lang (højst 5000 symboler)",
      extensions: { code: "BAD_USER_INPUT", messageKey: "graphql.tokens", messageParams: { max: 5000 } },
    });
  });
});
