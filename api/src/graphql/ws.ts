/**
 * graphql-ws on the same HTTP server and path as /graphql. A connection authenticates once (connectionParams
 * { authToken } or the auth_token cookie); each operation re-loads the user. When a user's sessions change
 * (logout, password change, deletion) their sockets re-check and close when the token no longer works; a
 * periodic sweep catches changes made by other processes (the CLI).
 *
 * Limits (ws.limits.ts): messages up to WS_MAX_PAYLOAD_BYTES (1009 beyond, checked before parsing); sockets not
 * signed in are bounded per client IP (HTTP 429 at the handshake) and closed without connection_init after
 * WS_CONNECTION_INIT_TIMEOUT_MS (4408); sockets per user (4290) and operations per socket (TOO_MANY_REQUESTS)
 * are capped; the cookie counts only from APP_URL's origin or ALLOWED_ORIGINS (4403 otherwise), while a token in
 * connectionParams, which a page can only send on purpose, is accepted from anywhere.
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
import { subscribeSharingExecutions } from "./ws.execute";
import {
  allowedOrigins,
  clientIp,
  isAllowedOrigin,
  MAX_SUBSCRIPTIONS_PER_SOCKET,
  SocketRegistry,
  tooManySubscriptionsError,
  tooManyUnauthenticatedBody,
  WS_BAD_MESSAGE_LINGER_MS,
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_TOO_MANY_SOCKETS,
  WS_CONNECTION_INIT_TIMEOUT_MS,
  WS_MAX_PAYLOAD_BYTES,
  WsLimitError,
  wsCloseReasons,
} from "./ws.limits";

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
  const { config } = services;
  const registry = new SocketRegistry<WebSocket>();
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: "/graphql",
    // refused from the frame header, before anything is buffered or parsed (the default is 100 MiB)
    maxPayload: WS_MAX_PAYLOAD_BYTES,
    // the per-IP bound on sockets not signed in, before a socket exists (the count itself moves on "connection")
    verifyClient: (info, done) => {
      if (registry.mayOpen(clientIp(info.req, config.trustProxyHops))) return done(true);
      done(false, 429, tooManyUnauthenticatedBody(), { "Content-Type": "application/json; charset=utf-8" });
    },
  });
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
    for (const socket of [...registry.socketsOf(userId)]) {
      const entry = live.get(socket);
      if (entry) void recheck(socket, entry);
    }
  });
  const sweep = setInterval(() => {
    for (const [socket, entry] of live) void recheck(socket, entry);
  }, services.config.wsRecheckMs);
  sweep.unref();

  const cleanup = useServer<Record<string, unknown> | undefined, { token?: string | null }>(
    {
      schema,
      // an event reaching several subscribers with the same operation and user is executed once (ws.execute.ts)
      subscribe: subscribeSharingExecutions,
      connectionInitWaitTimeout: WS_CONNECTION_INIT_TIMEOUT_MS,
      validate: (s, doc) => validate(s, doc, rules),
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        const param = ctx.connectionParams?.authToken;
        let token = typeof param === "string" && param ? param : null;
        if (!token) {
          // The cookie is ambient: any page the browser visits can open a socket here and it comes along. It
          // counts only when the handshake came from our own pages; a client without Origin (not a browser)
          // sends its token in connectionParams instead.
          const cookie = tokenFromCookieHeader(request.headers.cookie);
          if (cookie && !isAllowedOrigin(request.headers.origin, allowedOrigins(config))) {
            logger.info(
              { origin: request.headers.origin ?? null },
              "websocket cookie refused: origin not allowed",
            );
            socket.close(WS_CLOSE_FORBIDDEN, wsCloseReasons.originRefused());
            return false;
          }
          token = cookie;
        }
        ctx.extra.token = token;
        if (!token) return true;
        const auth = await services.auth.authenticate(token);
        if (!auth) return false; // a token was given and it is not valid: 4403
        const userId = String(auth.user._id);
        const signedIn = registry.signIn(socket, userId);
        if (signedIn === "closed") return false;
        if (signedIn === "too-many") {
          socket.close(WS_CLOSE_TOO_MANY_SOCKETS, wsCloseReasons.tooManySockets());
          return false;
        }
        live.set(socket, { token, userId });
        return true;
      },
      onSubscribe: (ctx, _id, payload) => {
        // graphql-ws has already entered this operation in ctx.subscriptions, so it counts itself
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET) {
          return [tooManySubscriptionsError()];
        }
        // the same token and complexity limits as over HTTP
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
          meta: { ip: clientIp(ctx.extra.request, config.trustProxyHops) },
        };
      },
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((e) => {
          if (e instanceof WsLimitError) return e; // already in its final form
          const formatted = formatGraphQLError(e);
          return new GraphQLError(formatted.message, { extensions: formatted.extensions });
        }),
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

  // Registered after useServer's own "connection" listener: the "error" listener it adds is replaced below.
  wsServer.on("connection", (socket, request) => {
    const ip = clientIp(request, config.trustProxyHops);
    registry.opened(socket, ip);
    socket.once("close", () => registry.closed(socket));
    // `ws` reports a bad frame (too big: 1009, malformed: 1002, bad UTF-8: 1007) as an "error" after it has
    // sent the close frame with that code. graphql-ws would print each one with console.error, which lets any
    // client fill the output; one log line through the logger is enough.
    socket.removeAllListeners("error");
    socket.on("error", (err) => {
      logger.info({ ip, err: err.message }, "websocket closed after a bad message");
      // `ws` goes on reading (and discarding) whatever the client still sends, e.g. the other 59 MB of a 60 MB
      // message, for up to 30 s: that reading alone slowed every request down. Stop reading instead (after
      // `ws` resumes the stream on the next tick), and drop the connection once the close frame had time to
      // arrive.
      process.nextTick(() => request.socket.pause());
      setTimeout(() => socket.terminate(), WS_BAD_MESSAGE_LINGER_MS).unref();
    });
  });

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
