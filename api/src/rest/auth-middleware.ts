/** REST sign-in state: the bearer header or the auth_token cookie, checked against the session store. */
import type { NextFunction, Request, Response } from "express";
import { tokenFromRequest } from "../auth/auth.cookie";
import type { Authenticated, RequestMeta } from "../auth/auth.service";
import { Errors } from "../errors";
import type { Services } from "../services";

/** What a request carries past attachAuth; routers get the services as their argument, not from here. */
export interface RestLocals {
  auth: Authenticated | null;
}

/** Runs for every /api request: sets res.locals.auth (null when not signed in). */
export function attachAuth(services: Services) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.auth = await services.auth.authenticate(tokenFromRequest(req));
    next();
  };
}

export function locals(res: Response): RestLocals {
  return res.locals as RestLocals;
}

export function requestMeta(req: Request): RequestMeta {
  const ua = req.headers["user-agent"];
  return { ip: req.ip, userAgent: typeof ua === "string" ? ua : undefined };
}

/** 401 unless signed in. */
export function requireUser(_req: Request, res: Response, next: NextFunction): void {
  if (!locals(res).auth) throw Errors.unauthenticated();
  next();
}

/** 401 unless signed in, 403 unless the DB-loaded user is an admin. */
export function requireAdmin(_req: Request, res: Response, next: NextFunction): void {
  const auth = locals(res).auth;
  if (!auth) throw Errors.unauthenticated();
  if (auth.identity.role !== "admin") throw Errors.forbidden("errors.adminOnly");
  next();
}

/** The signed-in user of a route behind requireUser. */
export function signedIn(res: Response): Authenticated {
  const auth = locals(res).auth;
  if (!auth) throw Errors.unauthenticated();
  return auth;
}
