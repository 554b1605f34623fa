import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from "@apollo/client";
import { SetContextLink } from "@apollo/client/link/context";
import { GraphQLWsLink } from "@apollo/client/link/subscriptions";
import { OperationTypeNode } from "graphql";
import { createClient } from "graphql-ws";
import { getAuthToken } from "./authToken";

function websocketUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${path}`;
}

/**
 * The one Apollo client: queries and mutations over HTTP (/graphql, bearer token + cookies),
 * subscriptions over graphql-ws on the same path. The websocket is lazy, so it opens only for the first
 * subscription and sends the current token in its connection parameters.
 */
export function createApolloClient(): ApolloClient {
  const httpLink = new HttpLink({ uri: "/graphql", credentials: "include" });

  const authLink = new SetContextLink(({ headers }) => {
    const token = getAuthToken();
    return { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } };
  });

  const wsLink = new GraphQLWsLink(
    createClient({
      url: websocketUrl("/graphql"),
      lazy: true,
      connectionParams: () => {
        const authToken = getAuthToken();
        return authToken ? { authToken } : {};
      },
    }),
  );

  const link = ApolloLink.split(
    (operation) => operation.operationType === OperationTypeNode.SUBSCRIPTION,
    wsLink,
    authLink.concat(httpLink),
  );

  return new ApolloClient({
    link,
    cache: new InMemoryCache(),
    // Spec §9: no automatic retries, nothing refetched on focus, no polling by default.
    defaultOptions: {
      watchQuery: { fetchPolicy: "cache-first" },
      query: { fetchPolicy: "network-only" },
    },
  });
}
