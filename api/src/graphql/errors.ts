/**
 * One mapping from errors to what GraphQL clients see, over HTTP (Apollo's formatError) and graphql-ws
 * (formatGraphQLError): AppError → its Danish message, extensions.code and the message's catalogue key and
 * parameters (extensions.messageKey / messageParams, for clients that show another language); GraphQL's own
 * request errors and
 * Apollo's refusals of a malformed request (a 4xx without a code, e.g. a persisted-query hash that does not match)
 * → BAD_USER_INPUT with a Danish message, not logged as failures; anything else is logged in full and shown as a
 * generic Danish message (INTERNAL_SERVER_ERROR). In production no message suggests schema names ("Did you
 * mean …?"): with introspection off they would give the schema away a guess at a time.
 */
import { unwrapResolverError } from "@apollo/server/errors";
import { formatMessage, isMessageKey, type MessageKey, type MessageParams } from "@vidensbank/shared";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { AppError } from "../errors";
import { logger } from "../logger";

/** GraphQL's own request errors: a Danish prefix (by key) before graphql-js's detail. */
const REQUEST_ERROR_CODES: Record<string, MessageKey> = {
  GRAPHQL_PARSE_FAILED: "graphql.parseFailed",
  GRAPHQL_VALIDATION_FAILED: "graphql.invalidRequest",
  BAD_USER_INPUT: "graphql.invalidInput",
  BAD_REQUEST: "graphql.invalidRequest",
  OPERATION_RESOLUTION_FAILURE: "graphql.invalidRequest",
  PERSISTED_QUERY_NOT_SUPPORTED: "graphql.invalidRequest",
  PERSISTED_QUERY_NOT_FOUND: "graphql.invalidRequest",
};

interface KeyedMessage {
  message: string;
  messageKey: MessageKey;
  messageParams: MessageParams;
}

const keyed = (key: MessageKey, params: MessageParams = {}): KeyedMessage => ({
  message: formatMessage(key, params),
  messageKey: key,
  messageParams: params,
});

/**
 * A refusal of our own (limits.ts limitError) carries its key in extensions: of the formatted error, or of the
 * error Apollo wrapped around ours (a validation rule's error).
 */
function ownRefusal(formatted: GraphQLFormattedError, error: unknown): KeyedMessage | null {
  const sources = [formatted.extensions];
  if (error instanceof GraphQLError) {
    sources.push(error.extensions);
    if (error.originalError instanceof GraphQLError) sources.push(error.originalError.extensions);
  }
  for (const extensions of sources) {
    const key = extensions?.messageKey;
    if (!isMessageKey(key)) continue;
    // a parameter may hold graphql-js's own words (graphql.invalidInput's detail): no schema names there either
    const params = Object.fromEntries(
      Object.entries((extensions?.messageParams ?? {}) as MessageParams).map(([name, value]) => [
        name,
        typeof value === "string" ? withoutSchemaDetails(value) : value,
      ]),
    );
    return keyed(key, params);
  }
  return null;
}

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

function requestErrorMessage(code: string, formatted: GraphQLFormattedError, error: unknown): KeyedMessage {
  const own = ownRefusal(formatted, error);
  if (own) return own;
  const message = formatted.message;
  const tokens = TOO_MANY_TOKENS.exec(message);
  if (tokens) return keyed("graphql.tokens", { max: Number(tokens[1]) });
  const key = REQUEST_ERROR_CODES[code] ?? REQUEST_ERROR_CODES.BAD_REQUEST;
  return keyed(key, { detail: withoutSchemaDetails(message) });
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
        messageKey: original.key,
        messageParams: original.params,
        ...(original.fieldErrors
          ? {
              fieldMessageKeys: original.fieldErrors.map((f) => ({
                field: f.field,
                messageKey: f.key,
                messageParams: f.params ?? {},
              })),
            }
          : {}),
      },
    };
  }
  const code = typeof formatted.extensions?.code === "string" ? formatted.extensions.code : undefined;
  if ((code && code in REQUEST_ERROR_CODES) || isRefusedRequest(error)) {
    const { message, messageKey, messageParams } = requestErrorMessage(
      code ?? "BAD_REQUEST",
      formatted,
      error,
    );
    return { ...base, message, extensions: { code: "BAD_USER_INPUT", messageKey, messageParams } };
  }
  logger.error({ err: original, path: formatted.path }, "unexpected GraphQL error");
  const { message, messageKey, messageParams } = keyed("errors.internal");
  return { ...base, message, extensions: { code: "INTERNAL_SERVER_ERROR", messageKey, messageParams } };
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
