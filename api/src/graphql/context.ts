/** What every resolver receives: the services and the signed-in user (loaded from the DB, never from claims). */
import type { Request, Response } from "express";
import type { Authenticated, RequestMeta } from "../auth/auth.service";
import { requestMeta } from "../rest/auth-middleware";
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

/**
 * The context of a GraphQL request over HTTP. `user` (a user document, made from the auth cache's copy) and `meta`
 * (req.ip walks the trusted proxies' addresses) are made when a resolver first reads them: most operations read
 * neither (the `@Authorized` check and a search read `auth.identity`). They are getters of the class, not of the
 * object, because Apollo copies the context once per operation with Object.assign, which reads (and so would
 * make) every getter of the object itself; the copy keeps the prototype, and with it the getters.
 */
export class HttpGraphQLContext implements GraphQLContext {
  private madeMeta: RequestMeta | undefined;

  constructor(
    readonly services: Services,
    readonly auth: Authenticated | null,
    readonly req: Request,
    readonly res: Response,
  ) {}

  get user(): UserDoc | null {
    return this.auth?.user ?? null; // the document is made once per request (Authenticated.user)
  }

  get meta(): RequestMeta {
    this.madeMeta ??= requestMeta(this.req);
    return this.madeMeta;
  }
}
