/** GraphQL door to the admin statistics and the knowledge-gap report (admin only); thin: AdminService. */
import { Arg, Authorized, Ctx, Int, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import { AdminStats, KnowledgeGap } from "./admin.types";
import { GAPS_LIMIT_DEFAULT } from "./stats.service";

@Resolver()
export class AdminResolver {
  @Authorized("ADMIN")
  @Query(() => AdminStats, { description: "the statistics tab: every figure computed now in the store" })
  adminStats(@Ctx() ctx: GraphQLContext) {
    return ctx.services.admin.stats();
  }

  @Authorized("ADMIN")
  @Query(() => [KnowledgeGap], {
    description: "recent questions the knowledge base could not answer, grouped by similarity, biggest first",
  })
  knowledgeGaps(
    @Arg("limit", () => Int, { defaultValue: GAPS_LIMIT_DEFAULT }) limit: number,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.admin.knowledgeGaps(limit);
  }
}
