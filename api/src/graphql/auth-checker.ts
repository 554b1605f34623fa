/**
 * @Authorized() needs a signed-in user; @Authorized("ADMIN") also the admin role. The role is read from the
 * user document loaded for this request, never from the token's claims.
 */
import type { AuthCheckerFn } from "type-graphql";
import { Errors } from "../errors";
import type { GraphQLContext } from "./context";

export const authChecker: AuthCheckerFn<GraphQLContext> = ({ context }, roles) => {
  const user = context.user;
  if (!user) throw Errors.unauthenticated();
  if (roles.length === 0) return true;
  if (roles.includes("ADMIN") && user.role === "admin") return true;
  throw Errors.forbidden("errors.adminOnly");
};
