/** GraphQL types of the Notion connection, discovery, configuration and sync (CONTRACTS.md "Notion"). */
import { GraphQLDateTimeISO } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";

@ObjectType()
export class NotionWorkspace {
  @Field(() => String) id!: string;
  @Field(() => String) name!: string;
}

@ObjectType()
export class NotionStatus {
  @Field(() => Boolean) connected!: boolean;
  @Field(() => NotionWorkspace, { nullable: true }) workspace!: NotionWorkspace | null;
  @Field(() => String, { nullable: true, description: '"token" | "oauth" | "env"; null when not connected' })
  via!: string | null;
}

@ObjectType()
export class NotionProperty {
  @Field(() => String) name!: string;
  @Field(() => String) type!: string;
}

@ObjectType({ description: "a database (data source) of the workspace with its suitability score" })
export class NotionDatabase {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: "plain title; '' when untitled" }) title!: string;
  @Field(() => String, { nullable: true, description: "an emoji" }) icon!: string | null;
  @Field(() => Int) pageCount!: number;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) lastEditedTime!: Date | null;
  @Field(() => [NotionProperty]) properties!: NotionProperty[];
  @Field(() => Int, { description: "0-100 (spec §5)" }) score!: number;
  @Field(() => Boolean, { description: "score ≥ 80" }) recommended!: boolean;
  @Field(() => Boolean) selected!: boolean;
}

@ObjectType()
export class NotionConfig {
  @Field(() => [ID]) selectedDatabases!: string[];
  @Field(() => GraphQLDateTimeISO, { nullable: true }) lastUpdated!: Date | null;
  @Field(() => Int, { description: "pages synced from the selected databases" }) totalPages!: number;
}

@ObjectType()
export class NotionSyncFailure {
  @Field(() => String) pageId!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => String) message!: string;
}

@ObjectType()
export class NotionSyncRun {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: '"running" | "succeeded" | "failed"' }) state!: string;
  @Field(() => String, { description: '"config" | "manual" | "schedule" | "cli"' }) trigger!: string;
  @Field(() => GraphQLDateTimeISO) startedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) finishedAt!: Date | null;
  @Field(() => Int) pagesSeen!: number;
  @Field(() => Int) pagesDone!: number;
  @Field(() => Int) pagesFailed!: number;
  @Field(() => Int) articlesRemoved!: number;
  @Field(() => [NotionSyncFailure]) failures!: NotionSyncFailure[];
  @Field(() => String, { nullable: true }) error!: string | null;
}
