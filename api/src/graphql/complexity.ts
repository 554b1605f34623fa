/** Refuses operations above MAX_COMPLEXITY (graphql-query-complexity), over HTTP (Apollo) and graphql-ws. */
import type { ApolloServerPlugin } from "@apollo/server";
import { type DocumentNode, GraphQLError, type GraphQLSchema } from "graphql";
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from "graphql-query-complexity";
import { limitMessages, MAX_COMPLEXITY } from "./limits";

/** The error refusing an operation (too complex, or variables that do not fit their types), or null. */
export function complexityError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  max: number = MAX_COMPLEXITY,
): GraphQLError | null {
  let complexity: number;
  try {
    complexity = getComplexity({
      schema,
      query: document,
      operationName: operationName ?? undefined,
      variables: variables ?? {},
      estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (e) {
    // variables that do not fit their types: the same answer graphql's own coercion would give
    return new GraphQLError(`Ugyldigt input: ${(e as Error).message}`, {
      extensions: { code: "BAD_USER_INPUT", http: { status: 400 } },
    });
  }
  if (complexity <= max) return null;
  return new GraphQLError(limitMessages.complexity(max), {
    extensions: { code: "BAD_USER_INPUT", http: { status: 400 } },
  });
}

export function complexityPlugin(schema: GraphQLSchema, max: number = MAX_COMPLEXITY): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const error = complexityError(schema, document, request.operationName, request.variables, max);
          if (error) throw error;
        },
      };
    },
  };
}
