/**
 * One mapping from errors to what GraphQL clients see: AppError → its Danish message and extensions.code;
 * GraphQL's own request errors → BAD_USER_INPUT with a Danish message; anything else is logged in full and
 * shown as a generic Danish message (INTERNAL_SERVER_ERROR).
 */
import { unwrapResolverError } from "@apollo/server/errors";
import type { GraphQLError, GraphQLFormattedError } from "graphql";
import { AppError, GENERIC_ERROR_MESSAGE } from "../errors";
import { logger } from "../logger";

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

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
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
  if (code && code in REQUEST_ERROR_CODES) {
    const danish = isDanish(formatted.message) ? formatted.message : REQUEST_ERROR_CODES[code];
    return {
      ...base,
      message: danish === formatted.message ? danish : `${danish}: ${formatted.message}`,
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
