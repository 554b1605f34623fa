/** GraphQL types of the admin statistics and the knowledge-gap report (CONTRACTS.md "Admin"). */
import type { MessageParams } from "@vidensbank/shared";
import { GraphQLDateTimeISO, GraphQLJSONObject } from "graphql-scalars";
import { Field, Int, ObjectType } from "type-graphql";
import { MESSAGE_KEY_DOC, MESSAGE_PARAMS_DOC } from "../activity/activity.types";

@ObjectType()
export class CategoryCount {
  @Field(() => String) category!: string;
  @Field(() => Int, { description: "article views recorded for the category" }) count!: number;
}

@ObjectType()
export class RecentActivity {
  @Field(() => String) description!: string;
  @Field(() => String, { nullable: true, description: MESSAGE_KEY_DOC }) messageKey!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: MESSAGE_PARAMS_DOC })
  messageParams!: MessageParams | null;
  @Field(() => String, { nullable: true }) userEmail!: string | null;
  @Field(() => GraphQLDateTimeISO) timestamp!: Date;
}

@ObjectType()
export class DayCount {
  @Field(() => String, { description: "yyyy-MM-dd, a day in Europe/Copenhagen" }) date!: string;
  @Field(() => Int) count!: number;
}

@ObjectType()
export class FeedbackComment {
  @Field(() => String, { description: "up | down" }) rating!: string;
  @Field(() => String) comment!: string;
  @Field(() => GraphQLDateTimeISO) at!: Date;
  @Field(() => String, { nullable: true }) userEmail!: string | null;
}

@ObjectType()
export class FeedbackSummary {
  @Field(() => Int) up!: number;
  @Field(() => Int) down!: number;
  @Field(() => [FeedbackComment], { description: "newest first" }) latestComments!: FeedbackComment[];
}

@ObjectType({ description: "the admin statistics; every figure is defined in api/src/admin/stats/" })
export class AdminStats {
  @Field(() => Int) totalUsers!: number;
  @Field(() => Int, { description: "users with a login or a question in the last 30 days" })
  activeUsers!: number;
  @Field(() => Int) totalChatSessions!: number;
  @Field(() => Int, { description: "chat messages since midnight Europe/Copenhagen" }) todayMessages!: number;
  @Field(() => Int) totalMessages!: number;
  @Field(() => Int) totalBookmarks!: number;
  @Field(() => Int, { description: "users with a login or a question in the last 7 days" })
  weeklyActiveUsers!: number;
  @Field(() => Int, { description: "seconds: mean of last − first message over sessions with ≥ 2 messages" })
  avgSessionDuration!: number;
  @Field(() => [CategoryCount], { description: "most viewed first" }) topCategories!: CategoryCount[];
  @Field(() => [RecentActivity], { description: "newest first, at most 6" })
  recentActivity!: RecentActivity[];
  @Field(() => [DayCount], { description: "the last 30 Copenhagen days, oldest first" })
  messagesPerDay!: DayCount[];
  @Field(() => [DayCount], { description: "the last 30 Copenhagen days, oldest first" })
  activeUsersPerDay!: DayCount[];
  @Field(() => FeedbackSummary) feedback!: FeedbackSummary;
}

@ObjectType({ description: "a group of similar questions the knowledge base could not answer" })
export class KnowledgeGap {
  @Field(() => String, { description: "the group's most recent question" }) question!: string;
  @Field(() => Int) count!: number;
  @Field(() => GraphQLDateTimeISO) lastAskedAt!: Date;
  @Field(() => [String], { description: "up to 3 distinct wordings, newest first" }) examples!: string[];
}
