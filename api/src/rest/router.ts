/**
 * The /api REST compatibility layer (spec §7): the feature routers (built with the services in app.ts) behind
 * the sign-in state. Every /api request gets the sign-in state; an unknown /api path is a JSON 404, never the
 * web app. A request is walked through the routers with a route under its first path segment only.
 */
import { type Router as ExpressRouter, Router } from "express";
import { Errors } from "../errors";
import type { Services } from "../services";
import { attachAuth } from "./auth-middleware";
import { restErrorHandler } from "./error-handler";
import { privateAnswers } from "./http-edge";
import { routeBySegment } from "./route-segments";

/** A feature's REST routes: a function of the services, never a module-level singleton. */
export type RestRouterFactory = (services: Services) => ExpressRouter;

export function apiRouter(services: Services, routers: readonly ExpressRouter[]): ExpressRouter {
  const api = Router();
  api.use(privateAnswers);
  api.use(attachAuth(services));
  // each request walks only the routers with a route under its first path segment (route-segments.ts)
  api.use(routeBySegment(routers));
  api.use(() => {
    throw Errors.notFound("rest.endpointNotFound");
  });
  api.use(restErrorHandler);
  return api;
}
