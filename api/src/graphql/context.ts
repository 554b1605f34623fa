/** What every resolver receives: the services and the signed-in user (loaded from the DB, never from claims). */
import type { Request, Response } from "express";
import type { Authenticated, RequestMeta } from "../auth/auth.service";
import type { Services } from "../services";
import type { UserDoc } from "../users/user.model";

export interface GraphQLContext {
  services: Services;
  auth: Authenticated | null;
  user: UserDoc | null;
  meta: RequestMeta;
  /** present over HTTP (cookies can be set); absent over graphql-ws */
  req?: Request;
  res?: Response;
}

/** The signed-in user; resolvers behind @Authorized() may rely on it. */
export function currentAuth(ctx: GraphQLContext): Authenticated {
  if (!ctx.auth) throw new Error("currentAuth called without @Authorized()");
  return ctx.auth;
}
