/**
 * The ceiling on one answer over HTTP (MAX_RESPONSE_BYTES), without serialising normal answers twice:
 *
 * - while the answer is made, every String field's text is counted against the request's budget (a resolver
 *   wrapper: one WeakMap lookup and an addition). Past the budget the remaining text fields resolve to nothing
 *   (no more work, no more memory) and the answer is replaced by one RESPONSE_TOO_LARGE error. Text is counted in
 *   UTF-16 units, never more than the UTF-8 bytes, so this never refuses an answer within the ceiling.
 * - the JSON Apollo makes anyway (stringifyResult) is then measured exactly: keys, numbers and structure, which the
 *   result-cost estimate keeps small, cannot push an answer past the ceiling unnoticed.
 *
 * Status 400, not 413: 413 says the request body is too large (clients and proxies read it so); here the request
 * is fine but asks for more than the server sends in one answer, which the client fixes by asking for less.
 * graphql-ws answers have no budget (their contexts live as long as a subscription); the cost estimate bounds them.
 */
import type { ApolloServerPlugin } from "@apollo/server";
import {
  defaultFieldResolver,
  type FormattedExecutionResult,
  GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
} from "graphql";
import { AppError } from "../errors";
import { logger } from "../logger";
import { formatError } from "./errors";
import { MAX_RESPONSE_BYTES } from "./limits";

export const RESPONSE_TOO_LARGE = "RESPONSE_TOO_LARGE";

interface TextBudget {
  /** UTF-16 units of text still allowed */
  left: number;
  exceeded: boolean;
}

const budgets = new WeakMap<object, TextBudget>();

export function responseTooLargeError(maxBytes: number = MAX_RESPONSE_BYTES): GraphQLError {
  const error = new AppError(RESPONSE_TOO_LARGE, "graphql.responseBytes", {
    mb: Math.round(maxBytes / (1024 * 1024)),
  });
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { http: { status: 400 } },
  });
}

function charge(budget: TextBudget, value: unknown): unknown {
  if (typeof value === "string") budget.left -= value.length;
  else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") budget.left -= v.length;
  if (budget.left < 0) budget.exceeded = true;
  return value;
}

const isPromiseLike = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as PromiseLike<unknown> | null)?.then === "function";

/** Count the text of every String field (and list of String) of the schema against the request's budget. */
export function countTextOutput(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (getNamedType(field.type).name !== "String") continue;
      const list = isListType(getNullableType(field.type));
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const budget = typeof context === "object" && context ? budgets.get(context) : undefined;
        if (!budget) return resolve(source, args, context, info);
        if (budget.exceeded) return list ? [] : ""; // the answer is refused whole: stop making text
        const value = resolve(source, args, context, info);
        return isPromiseLike(value) ? value.then((v) => charge(budget, v)) : charge(budget, value);
      };
    }
  }
}

/** Gives each HTTP request a text budget and refuses the answer that went past it. */
export function responseSizePlugin(maxBytes: number = MAX_RESPONSE_BYTES): ApolloServerPlugin {
  return {
    async requestDidStart({ contextValue }) {
      const budget: TextBudget = { left: maxBytes, exceeded: false };
      budgets.set(contextValue, budget);
      return {
        async willSendResponse({ response, request }) {
          if (!budget.exceeded) return;
          logger.info(
            { operationName: request.operationName, maxBytes },
            "GraphQL answer too large; refused",
          );
          const error = responseTooLargeError(maxBytes);
          response.body = {
            kind: "single",
            singleResult: { errors: [formatError({ message: error.message }, error)] },
          };
          response.http.status = 400;
        },
      };
    },
  };
}

/**
 * Apollo's stringifyResult (JSON plus a newline, as its default) measuring what it made: an answer over maxBytes
 * throws, and Apollo answers with the formatted error and its status instead.
 */
export function sizeLimitedStringify(maxBytes: number = MAX_RESPONSE_BYTES) {
  return (value: FormattedExecutionResult): string => {
    let json: string;
    try {
      json = `${JSON.stringify(value)}\n`;
    } catch (e) {
      if (e instanceof RangeError) throw responseTooLargeError(maxBytes); // past V8's longest string
      throw e;
    }
    // a UTF-16 unit is 1 to 3 UTF-8 bytes: count the bytes only when the length alone cannot tell
    const fits =
      json.length * 3 <= maxBytes || (json.length <= maxBytes && Buffer.byteLength(json) <= maxBytes);
    if (!fits) {
      logger.info({ bytes: Buffer.byteLength(json), maxBytes }, "GraphQL answer too large; refused");
      throw responseTooLargeError(maxBytes);
    }
    return json;
  };
}
