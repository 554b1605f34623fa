import { Authorized, Ctx, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { getEnvironment } from "./environment.service";
import { EnvironmentInfo } from "./environment.types";

@Resolver()
export class EnvironmentResolver {
  @Authorized()
  @Query(() => EnvironmentInfo, { description: "only for the ENV_BADGE_USERNAME user, else FORBIDDEN" })
  environment(@Ctx() ctx: GraphQLContext) {
    return getEnvironment(ctx.services.config, currentAuth(ctx).user.username);
  }
}
