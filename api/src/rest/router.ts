/**
 * The /api REST compatibility layer (spec §7). Feature modules add their router to `restRouters` (one line
 * each). Every /api request gets the sign-in state; an unknown /api path is a JSON 404, never the web app.
 */
import { type Router as ExpressRouter, Router } from "express";
import { activityRestRouter } from "../activity/activity.rest";
import { authRestRouter } from "../auth/auth.rest";
import { bookmarksRestRouter } from "../bookmarks/bookmarks.rest";
import { chatRestRouter } from "../chat/chat.rest";
import { Errors } from "../errors";
import { knowledgeRestRouter } from "../knowledge/knowledge.rest";
import type { Services } from "../services";
import { environmentRestRouter } from "../system/environment.rest";
import { usersRestRouter } from "../users/users.rest";
import { attachAuth } from "./auth-middleware";
import { restErrorHandler } from "./error-handler";

export const restRouters: Array<(services: Services) => ExpressRouter> = [
  authRestRouter,
  usersRestRouter,
  activityRestRouter,
  environmentRestRouter,
  chatRestRouter,
  knowledgeRestRouter,
  bookmarksRestRouter,
];

export function apiRouter(services: Services): ExpressRouter {
  const api = Router();
  api.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  api.use(attachAuth(services));
  for (const make of restRouters) api.use(make(services));
  api.use(() => {
    throw Errors.notFound("rest.endpointNotFound");
  });
  api.use(restErrorHandler);
  return api;
}
