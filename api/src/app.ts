/**
 * The HTTP app: Express 5 with helmet, Apollo Server at /graphql, graphql-ws on the same port and path,
 * the REST compatibility layer under /api, health probes, and the built web app for every other path.
 */
import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ApolloServer } from "@apollo/server";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { expressMiddleware } from "@as-integrations/express5";
import cookieParser from "cookie-parser";
import express, { type Express } from "express";
import helmet from "helmet";
import { activityRestRouter } from "./activity/activity.rest";
import { adminRestRouter } from "./admin/admin.rest";
import { tokenFromRequest } from "./auth/auth.cookie";
import { authRestRouter } from "./auth/auth.rest";
import { bookmarksRestRouter } from "./bookmarks/bookmarks.rest";
import { chatRestRouter } from "./chat/chat.rest";
import { pingDatabase } from "./db/connection";
import { complexityPlugin } from "./graphql/complexity";
import { type GraphQLContext, HttpGraphQLContext } from "./graphql/context";
import { formatError, setHideSchemaDetails } from "./graphql/errors";
import { graphqlBodyErrorHandler } from "./graphql/http-errors";
import { httpOperationsPlugin } from "./graphql/http-operations";
import { depthLimitRule, PARSE_OPTIONS } from "./graphql/limits";
import { responseSizePlugin, sizeLimitedStringify } from "./graphql/response-size";
import { buildAppSchema } from "./graphql/schema";
import { attachGraphQLWs } from "./graphql/ws";
import { knowledgeRestRouter } from "./knowledge/knowledge.rest";
import { logger } from "./logger";
import { notionRestRouter } from "./notion/notion.rest";
import { restErrorHandler } from "./rest/error-handler";
import { createHttpServer, jsonBody, privateAnswers, requireValidHost } from "./rest/http-edge";
import { apiRouter, type RestRouterFactory } from "./rest/router";
import type { Services } from "./services";
import { sharesRestRouter } from "./shares/shares.rest";
import { environmentRestRouter } from "./system/environment.rest";
import { usersRestRouter } from "./users/users.rest";

/** The REST compatibility routers (spec §7), in order; each is given the services here. One line per feature. */
export const REST_ROUTERS: readonly RestRouterFactory[] = [
  authRestRouter,
  usersRestRouter,
  activityRestRouter,
  adminRestRouter,
  environmentRestRouter,
  chatRestRouter,
  knowledgeRestRouter,
  bookmarksRestRouter,
  notionRestRouter,
  sharesRestRouter,
];

export const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));
export const BODY_LIMIT = "1mb";

export interface AppOptions {
  services: Services;
  /** the built web app (default web/dist); missing → a plain helpful page */
  webDist?: string;
}

export interface RunningApp {
  express: Express;
  /** the GraphQL server (the warm-up runs operations through it in-process: warmup.ts) */
  apollo: ApolloServer<GraphQLContext>;
  /** /readyz answers 503 {status:"warming"} until `done` settles */
  warming(done: Promise<unknown>): void;
  httpServer: http.Server;
  /** listen; resolves with the bound port */
  listen(port: number, host?: string): Promise<number>;
  /** stop accepting, drain requests, close websockets */
  close(): Promise<void>;
}

/**
 * The websocket origin of APP_URL (ws: for http:, wss: for https:). Never taken from the request: a Host header
 * is whatever the client sends, and the policy must not allow a host an attacker names.
 */
export function websocketOrigin(appUrl: string): string {
  const url = new URL(appUrl);
  return `${url.protocol === "https:" ? "wss" : "ws"}://${url.host}`;
}

function contentSecurityPolicy(appUrl: string) {
  const https = appUrl.startsWith("https:");
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // MUI (emotion) injects <style> elements at runtime
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'", "data:"],
      // 'self' covers ws:/wss: to this origin in CSP3 browsers (Chrome 71+, Firefox, Safari 16+); APP_URL's
      // websocket origin is for older Safari. Both are fixed at start, so helmet builds the header once.
      connectSrc: ["'self'", websocketOrigin(appUrl)],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(https ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

function missingWebPage(): string {
  return `<!doctype html><html lang="da"><head><meta charset="utf-8"><title>Vidensbank</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5">
<h1>Vidensbank</h1>
<p>API'et kører, men web-appen er ikke bygget endnu.</p>
<p>Byg den med <code>npm run build -w web</code> (eller start med <code>npm start</code>, som bygger den først).</p>
<p>GraphQL: <a href="/graphql">/graphql</a> · REST: <a href="/api/auth/status">/api/auth/status</a> · Status: <a href="/healthz">/healthz</a></p>
</body></html>`;
}

/** Build the app for these services. The database must already be connected. */
export async function createApp(opts: AppOptions): Promise<RunningApp> {
  const { services } = opts;
  const { config } = services;
  const schema = await buildAppSchema();
  const app = express();
  const httpServer = createHttpServer(app);
  app.disable("x-powered-by");
  app.use(requireValidHost);

  app.use((req, res, next) => {
    if (!logger.isLevelEnabled("debug")) return next();
    const started = performance.now();
    res.on("finish", () => {
      logger.debug(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        "request",
      );
    });
    next();
  });
  if (config.trustProxyHops > 0) app.set("trust proxy", config.trustProxyHops);
  app.use(helmet({ contentSecurityPolicy: contentSecurityPolicy(config.appUrl) }));
  app.use(cookieParser());

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  // not ready while the start-up warm-up runs (start.ts, WARMUP=1): a balancer that checks waits for warm code
  let warming: Promise<unknown> | null = null;
  app.get("/readyz", async (_req, res) => {
    const ok = await pingDatabase();
    if (warming) res.status(503).json({ status: "warming", database: ok });
    else res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "unavailable", database: ok });
  });

  const production = config.nodeEnv === "production";
  // no "Did you mean …?" in production, over HTTP and graphql-ws alike (both format errors in graphql/errors.ts)
  setHideSchemaDetails(production);
  const ws = attachGraphQLWs(httpServer, schema, services);
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    introspection: !production,
    hideSchemaDetailsFromClientErrors: production,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false, // main.ts owns shutdown
    parseOptions: PARSE_OPTIONS, // a document's size is bounded before it is validated
    validationRules: [depthLimitRule()],
    stringifyResult: sizeLimitedStringify(),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageDisabled(),
      // no cache hints are used: without this Apollo wraps every field resolver to collect them
      ApolloServerPluginCacheControlDisabled(),
      httpOperationsPlugin(),
      complexityPlugin(schema),
      responseSizePlugin(),
    ],
  });
  await apollo.start();

  // GraphQL in an app of its own, whose responses carry no ETag: a POST is never revalidated, and hashing every
  // response body (SHA-1) was ~0.8 % of a question's CPU before its model request. It inherits every other
  // setting (trust proxy: req.ip as for REST) from `app`; its own defaults that differ are set here.
  const graphqlApp = express();
  graphqlApp.disable("x-powered-by");
  graphqlApp.set("etag", false);
  app.use("/graphql", graphqlApp);
  graphqlApp.use(
    privateAnswers,
    jsonBody(BODY_LIMIT),
    expressMiddleware(apollo, {
      context: async ({ req, res }): Promise<GraphQLContext> =>
        new HttpGraphQLContext(services, await services.auth.authenticate(tokenFromRequest(req)), req, res),
    }),
    graphqlBodyErrorHandler,
  );

  const restRouters = REST_ROUTERS.map((router) => router(services));
  app.use("/api", jsonBody(BODY_LIMIT), apiRouter(services, restRouters));

  const webDist = opts.webDist ?? DEFAULT_WEB_DIST;
  const indexHtml = path.join(webDist, "index.html");
  if (fs.existsSync(indexHtml)) {
    app.use(express.static(webDist, { index: false, maxAge: "1h" }));
    // client-side routing: every other path is the app
    app.get("/{*splat}", (_req, res) => {
      res.setHeader("Cache-Control", "no-cache");
      res.sendFile(indexHtml);
    });
  } else {
    logger.warn({ webDist }, "web app not built; serving a placeholder page");
    app.get("/{*splat}", (_req, res) => {
      res.type("html").send(missingWebPage());
    });
  }
  app.use(restErrorHandler);

  return {
    express: app,
    apollo,
    warming(done) {
      warming = done;
      const clear = () => {
        if (warming === done) warming = null;
      };
      done.then(clear, clear);
    },
    httpServer,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        httpServer.once("error", reject);
        httpServer.listen(port, host, () => resolve((httpServer.address() as AddressInfo).port));
      });
    },
    async close() {
      await ws.close();
      logger.debug("websockets closed");
      await apollo.stop(); // drains the HTTP server
      logger.debug("apollo stopped");
      if (httpServer.listening) await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
