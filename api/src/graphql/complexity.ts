/** Apollo plugin refusing operations above MAX_COMPLEXITY (graphql-query-complexity). */
import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, type GraphQLSchema } from "graphql";
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from "graphql-query-complexity";
import { limitMessages, MAX_COMPLEXITY } from "./limits";

export function complexityPlugin(schema: GraphQLSchema, max: number = MAX_COMPLEXITY): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          let complexity: number;
          try {
            complexity = getComplexity({
              schema,
              query: document,
              operationName: request.operationName ?? undefined,
              variables: request.variables ?? {},
              estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
            });
          } catch (e) {
            // variables that do not fit their types: the same answer graphql's own coercion would give
            throw new GraphQLError(`Ugyldigt input: ${(e as Error).message}`, {
              extensions: { code: "BAD_USER_INPUT", http: { status: 400 } },
            });
          }
          if (complexity > max) {
            throw new GraphQLError(limitMessages.complexity(max), {
              extensions: { code: "BAD_USER_INPUT", http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}
