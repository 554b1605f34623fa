/** GraphQL door to the Notion service: the status for every signed-in user, everything else the admin's. */
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import type { Topics } from "../events/bus";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { fromBus } from "../graphql/pubsub";
import "./notion.events";
import type { NotionDatabaseView } from "./notion.service";
import { NotionConfig, NotionDatabase, NotionStatus, NotionSyncRun } from "./notion.types";

function toDatabase(d: NotionDatabaseView): NotionDatabase {
  return {
    id: d.id,
    title: d.title.map((t) => t.plain_text).join(""),
    icon: d.icon?.emoji ?? null,
    pageCount: d.page_count,
    lastEditedTime: d.last_edited_time ? new Date(d.last_edited_time) : null,
    properties: Object.entries(d.properties).map(([name, p]) => ({ name, type: p.type })),
    score: d.score,
    recommended: d.recommended,
    selected: d.selected,
  };
}

@Resolver()
export class NotionResolver {
  @Authorized()
  @Query(() => NotionStatus, { description: "connected or not, and the workspace" })
  notionStatus(@Ctx() ctx: GraphQLContext) {
    return ctx.services.notion.status();
  }

  @Authorized("ADMIN")
  @Query(() => [NotionDatabase], { description: "the workspace's databases with suitability score (admin)" })
  async notionDatabases(@Ctx() ctx: GraphQLContext) {
    return (await ctx.services.notion.databases(currentAuth(ctx).user)).map(toDatabase);
  }

  @Authorized("ADMIN")
  @Query(() => NotionConfig)
  notionConfig(@Ctx() ctx: GraphQLContext) {
    return ctx.services.notion.getConfig();
  }

  @Authorized("ADMIN")
  @Query(() => NotionSyncRun, { nullable: true, description: "the latest sync run; null when never synced" })
  notionSync(@Ctx() ctx: GraphQLContext) {
    return ctx.services.notion.latestRun();
  }

  @Authorized("ADMIN")
  @Mutation(() => NotionStatus, {
    description: "check an integration token with Notion and save it encrypted",
  })
  connectNotion(@Arg("token", () => String) token: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.notion.connectToken(currentAuth(ctx).user, token);
  }

  @Authorized("ADMIN")
  @Mutation(() => NotionStatus)
  disconnectNotion(@Ctx() ctx: GraphQLContext) {
    return ctx.services.notion.disconnect(currentAuth(ctx).user);
  }

  @Authorized("ADMIN")
  @Mutation(() => NotionConfig, { description: "save the selected databases and start a sync" })
  saveNotionConfig(
    @Arg("selectedDatabases", () => [ID]) selectedDatabases: string[],
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.notion.saveConfig(currentAuth(ctx).user, selectedDatabases);
  }

  @Authorized("ADMIN")
  @Mutation(() => NotionSyncRun, { description: "start a sync now (or the one running)" })
  startNotionSync(@Ctx() ctx: GraphQLContext) {
    return ctx.services.notion.startSync(currentAuth(ctx).user, "manual");
  }

  @Authorized("ADMIN")
  @Subscription(() => NotionSyncRun, {
    subscribe: fromBus("NOTION_SYNC_PROGRESS"),
    description: "a sync run's progress (throttled) and its end",
  })
  notionSyncProgress(@Root() run: Topics["NOTION_SYNC_PROGRESS"]) {
    return run;
  }
}
