/**
 * graphql-ws on the same HTTP server and path as /graphql. A connection authenticates once (connectionParams
 * { authToken } or the auth_token cookie); each operation re-loads the user. When a user's sessions change
 * (logout, password change, deletion) their sockets re-check and close when the token no longer works; a
 * periodic sweep catches changes made by other processes (the CLI).
 */
import type { Server } from "node:http";
import {
  GraphQLError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { type WebSocket, WebSocketServer } from "ws";
import { tokenFromCookieHeader } from "../auth/auth.cookie";
import { onSessionsChanged } from "../auth/session-events";
import { logger } from "../logger";
import type { Services } from "../services";
import { complexityError } from "./complexity";
import type { GraphQLContext } from "./context";
import { formatGraphQLError } from "./errors";
import { depthLimitRule, PARSE_OPTIONS } from "./limits";

interface LiveSocket {
  token: string;
  userId: string;
}

export const WS_CLOSE_UNAUTHORIZED = 4401;

export function attachGraphQLWs(
  httpServer: Server,
  schema: GraphQLSchema,
  services: Services,
): { close(): Promise<void> } {
  const wsServer = new WebSocketServer({ server: httpServer, path: "/graphql" });
  const live = new Map<WebSocket, LiveSocket>();
  const rules = [
    ...specifiedRules,
    depthLimitRule(),
    ...(services.config.nodeEnv === "production" ? [NoSchemaIntrospectionCustomRule] : []),
  ];

  const recheck = async (socket: WebSocket, entry: LiveSocket) => {
    const auth = await services.auth.authenticate(entry.token).catch(() => null);
    if (!auth) {
      live.delete(socket);
      socket.close(WS_CLOSE_UNAUTHORIZED, "Unauthorized");
    }
  };

  const stopListening = onSessionsChanged((userId) => {
    for (const [socket, entry] of live) if (entry.userId === userId) void recheck(socket, entry);
  });
  const sweep = setInterval(() => {
    for (const [socket, entry] of live) void recheck(socket, entry);
  }, services.config.wsRecheckMs);
  sweep.unref();

  const cleanup = useServer<Record<string, unknown> | undefined, { token?: string | null }>(
    {
      schema,
      validate: (s, doc) => validate(s, doc, rules),
      onConnect: async (ctx) => {
        const param = ctx.connectionParams?.authToken;
        const token =
          (typeof param === "string" && param ? param : null) ??
          tokenFromCookieHeader(ctx.extra.request.headers.cookie);
        ctx.extra.token = token;
        if (!token) return true;
        const auth = await services.auth.authenticate(token);
        if (!auth) return false; // a token was given and it is not valid: 4403
        live.set(ctx.extra.socket, { token, userId: String(auth.user._id) });
        return true;
      },
      // the same complexity limit as over HTTP (a document that does not parse is refused by the default flow)
      onSubscribe: (_ctx, _id, payload) => {
        let document: ReturnType<typeof parse>;
        try {
          document = parse(payload.query, PARSE_OPTIONS);
        } catch (e) {
          return [e as GraphQLError]; // not parsed again without the token cap
        }
        const error = complexityError(schema, document, payload.operationName, payload.variables);
        return error ? [error] : undefined;
      },
      onClose: (ctx) => {
        live.delete(ctx.extra.socket);
      },
      context: async (ctx): Promise<GraphQLContext> => {
        const auth = ctx.extra.token ? await services.auth.authenticate(ctx.extra.token) : null;
        return {
          services,
          auth,
          user: auth?.user ?? null,
          meta: { ip: ctx.extra.request.socket.remoteAddress },
        };
      },
      onError: (_ctx, _id, _payload, errors) =>
        errors.map(
          (e) =>
            new GraphQLError(formatGraphQLError(e).message, {
              extensions: formatGraphQLError(e).extensions,
            }),
        ),
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!("errors" in result) || !result.errors) return result;
        return {
          ...result,
          errors: result.errors.map((e) => formatGraphQLError(e)),
        } as unknown as typeof result;
      },
    },
    wsServer,
  );

  return {
    async close() {
      stopListening();
      clearInterval(sweep);
      for (const socket of live.keys()) socket.close(1001, "Server shutting down");
      await cleanup.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      logger.debug("graphql-ws closed");
    },
  };
}
