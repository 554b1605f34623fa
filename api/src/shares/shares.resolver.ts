/** GraphQL door to shared conversations: thin, every rule is in SharesService. */
import { isUntitledTitle } from "@vidensbank/shared";
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { ChatShare, SharedChat } from "./shares.types";

@Resolver()
export class SharesResolver {
  @Authorized()
  @Query(() => [ChatShare], { description: "the signed-in user's shares, newest first" })
  chatShares(@Ctx() ctx: GraphQLContext) {
    return ctx.services.shares.list(currentAuth(ctx).user);
  }

  @Authorized()
  @Query(() => SharedChat, {
    description: "a shared conversation, read-only, for any signed-in user; NOT_FOUND when revoked or gone",
  })
  async sharedChat(@Arg("shareId", () => ID) shareId: string, @Ctx() ctx: GraphQLContext) {
    const shared = await ctx.services.shares.open(shareId);
    // GraphQL only: REST gives the stored title alone (spec §6)
    return { ...shared, untitled: isUntitledTitle(shared.title) };
  }

  @Authorized("ADMIN")
  @Query(() => [ChatShare], { description: "every share with its owner's e-mail, newest first" })
  adminChatShares(@Ctx() ctx: GraphQLContext) {
    return ctx.services.shares.adminList();
  }

  @Authorized()
  @Mutation(() => ChatShare, {
    description: "a link to a snapshot of the session as it is now (finished answers only)",
  })
  shareChatSession(@Arg("sessionId", () => ID) sessionId: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.shares.share(currentAuth(ctx).user, sessionId);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: "the owner (or an admin) ends a share; NOT_FOUND otherwise" })
  async revokeChatShare(@Arg("shareId", () => ID) shareId: string, @Ctx() ctx: GraphQLContext) {
    await ctx.services.shares.revoke(currentAuth(ctx).user, shareId);
    return true;
  }
}
