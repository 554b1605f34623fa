/**
 * One mapping from errors to what GraphQL clients see, over HTTP (Apollo's formatError) and graphql-ws
 * (formatGraphQLError): AppError → its Danish message and extensions.code; GraphQL's own request errors and
 * Apollo's refusals of a malformed request (a 4xx without a code, e.g. a persisted-query hash that does not match)
 * → BAD_USER_INPUT with a Danish message, not logged as failures; anything else is logged in full and shown as a
 * generic Danish message (INTERNAL_SERVER_ERROR). In production no message suggests schema names ("Did you
 * mean …?"): with introspection off they would give the schema away a guess at a time.
 */
import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { AppError, GENERIC_ERROR_MESSAGE } from "../errors";
import { logger } from "../logger";
import { limitMessages } from "./limits";

const REQUEST_ERROR_CODES: Record<string, string> = {
  GRAPHQL_PARSE_FAILED: "Ugyldig GraphQL-forespørgsel",
  GRAPHQL_VALIDATION_FAILED: "Ugyldig forespørgsel",
  BAD_USER_INPUT: "Ugyldigt input",
  BAD_REQUEST: "Ugyldig forespørgsel",
  OPERATION_RESOLUTION_FAILURE: "Ugyldig forespørgsel",
  PERSISTED_QUERY_NOT_SUPPORTED: "Ugyldig forespørgsel",
  PERSISTED_QUERY_NOT_FOUND: "Ugyldig forespørgsel",
};

// Our own validation rules already speak Danish.
const isDanish = (m: string) => /^(Forespørgslen|Ugyldig)/.test(m);

// graphql-js's parse with maxTokens: "Syntax Error: Document contains more than 5000 tokens. Parsing aborted."
const TOO_MANY_TOKENS = /Document contains more (?:than|that) (\d+) tokens/; // graphql 16 writes "more that"

// graphql-js's suggestions: ' Did you mean "x", "y", or "z"?' / ' Did you mean the enum value "x"?' (names hold no '?')
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

let hideSchemaDetails = true;

/** Whether client errors may suggest schema names (development and tests: yes; production: no). Default: hidden. */
export function setHideSchemaDetails(hide: boolean): void {
  hideSchemaDetails = hide;
}

/** The message without suggestions of schema names, when they are hidden. */
export function withoutSchemaDetails(message: string): string {
  return hideSchemaDetails ? message.replace(SUGGESTION, "") : message;
}

/** Apollo's refusal of a malformed request: a GraphQLError of its own (no cause) with a 4xx HTTP status. */
function isRefusedRequest(error: unknown): boolean {
  if (!(error instanceof GraphQLError) || error.originalError) return false;
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

function requestErrorMessage(code: string, message: string): string {
  const tokens = TOO_MANY_TOKENS.exec(message);
  if (tokens) return limitMessages.tokens(Number(tokens[1]));
  const detail = withoutSchemaDetails(message);
  if (isDanish(detail)) return detail;
  const danish = REQUEST_ERROR_CODES[code] ?? REQUEST_ERROR_CODES.BAD_REQUEST;
  return `${danish}: ${detail}`;
}

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  // a request-level error of ours (no path) carries its AppError too
  const original =
    error instanceof GraphQLError && error.originalError instanceof AppError
      ? error.originalError
      : unwrapResolverError(error);
  const base = { locations: formatted.locations, path: formatted.path };
  if (original instanceof AppError) {
    return {
      ...base,
      message: original.message,
      extensions: {
        code: original.code,
        ...(original.fields ? { fields: original.fields } : {}),
        ...(original.retryAfter !== undefined ? { retryAfter: original.retryAfter } : {}),
      },
    };
  }
  const code = typeof formatted.extensions?.code === "string" ? formatted.extensions.code : undefined;
  if ((code && code in REQUEST_ERROR_CODES) || isRefusedRequest(error)) {
    return {
      ...base,
      message: requestErrorMessage(code ?? "BAD_REQUEST", formatted.message),
      extensions: { code: "BAD_USER_INPUT" },
    };
  }
  logger.error({ err: original, path: formatted.path }, "unexpected GraphQL error");
  return { ...base, message: GENERIC_ERROR_MESSAGE, extensions: { code: "INTERNAL_SERVER_ERROR" } };
}

/** For graphql-ws, where errors arrive as GraphQLError instances. */
export function formatGraphQLError(error: GraphQLError): GraphQLFormattedError {
  const formatted = error.toJSON();
  if (!error.originalError && !formatted.extensions?.code) {
    // a validation error from graphql itself
    return formatError({ ...formatted, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } }, error);
  }
  return formatError(formatted, error);
}
