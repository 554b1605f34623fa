/**
 * @Authorized() needs a signed-in user; @Authorized("ADMIN") also the admin role. The role is read from the
 * user loaded for this request (the auth cache's copy of the stored account), never from the token's claims; no
 * user document is made for the check.
 */
import type { AuthCheckerFn } from "type-graphql";
import { Errors } from "../errors";
import type { GraphQLContext } from "./context";

export const authChecker: AuthCheckerFn<GraphQLContext> = ({ context }, roles) => {
  const user = context.auth?.identity;
  if (!user) throw Errors.unauthenticated();
  if (roles.length === 0) return true;
  if (roles.includes("ADMIN") && user.role === "admin") return true;
  throw Errors.forbidden("errors.adminOnly");
};
