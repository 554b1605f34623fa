/** GraphQL door to preferences and user administration. */
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import type { Topics } from "../events/bus";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { fromBus } from "../graphql/pubsub";
import { AdminUser, Preferences, PreferencesInput } from "./users.types";

@Resolver()
export class UsersResolver {
  @Authorized()
  @Query(() => Preferences)
  myPreferences(@Ctx() ctx: GraphQLContext) {
    return ctx.services.preferences.get(String(currentAuth(ctx).user._id));
  }

  @Authorized()
  @Mutation(() => Preferences)
  updatePreferences(
    @Arg("input", () => PreferencesInput) input: PreferencesInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.preferences.update(String(currentAuth(ctx).user._id), {
      language: input.language ?? undefined,
      theme: input.theme ?? undefined,
      notifications: input.notifications ?? undefined,
    });
  }

  @Authorized()
  @Subscription(() => Preferences, {
    description: "the signed-in user's preferences, when saved elsewhere (another tab)",
    subscribe: fromBus(
      "PREFERENCES_CHANGED",
      (payload, ctx) => !!ctx.user && payload.userId === String(ctx.user._id),
    ),
  })
  preferencesChanged(@Root() payload: Topics["PREFERENCES_CHANGED"]) {
    return payload;
  }

  @Authorized("ADMIN")
  @Query(() => [AdminUser])
  adminUsers(
    @Arg("search", () => String, { nullable: true }) search: string | null | undefined,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.users.listUsers(currentAuth(ctx).user, search);
  }

  @Authorized("ADMIN")
  @Mutation(() => Boolean, {
    description: "the built-in admin -> FORBIDDEN 'Admin-brugeren kan ikke slettes'",
  })
  async adminDeleteUser(@Arg("id", () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.users.deleteUser(currentAuth(ctx).user, id);
    return true;
  }

  @Authorized("ADMIN")
  @Mutation(() => Boolean)
  async adminResetPassword(
    @Arg("userId", () => ID) userId: string,
    @Arg("newPassword", () => String) newPassword: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.users.adminResetPassword(currentAuth(ctx).user, userId, newPassword);
    return true;
  }
}
