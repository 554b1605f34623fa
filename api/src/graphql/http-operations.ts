/**
 * What GraphQL over HTTP runs: queries and mutations. A subscription needs the websocket (graphql-ws at the same
 * path); over HTTP it would run its resolver once and fail as an internal error, so it is refused before it runs,
 * with a stable code (400 BAD_USER_INPUT) and not logged as a failure.
 */
import type { ApolloServerPlugin } from "@apollo/server";
import { limitError } from "./limits";

export function httpOperationsPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === "subscription") {
            throw limitError("graphql.subscriptionOverHttp", {}, { extensions: { http: { status: 400 } } });
          }
        },
      };
    },
  };
}
