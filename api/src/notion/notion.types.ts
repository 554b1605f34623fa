/** GraphQL types of the Notion connection, discovery, configuration and sync (CONTRACTS.md "Notion"). */
import type { MessageParams } from "@vidensbank/shared";
import { GraphQLDateTimeISO, GraphQLJSONObject } from "graphql-scalars";
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

const FAILURE_KEY_DOC =
  "the reason's key, to show it in the reader's language: a Notion reason (unauthorized, unexpectedShape, unreachable, pageGone, rateLimited, notionError, rejected, unexpected, notConnected, someDatabasesFailed, alreadyRunning) or a message key of @vidensbank/shared; null for a run stored before the keys";
const FAILURE_PARAMS_DOC = "the values of the reason's placeholders (strings or numbers)";

@ObjectType()
export class NotionSyncFailure {
  @Field(() => String) pageId!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => String, { description: "the reason in Danish" }) message!: string;
  @Field(() => String, { nullable: true, description: FAILURE_KEY_DOC }) messageKey!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: FAILURE_PARAMS_DOC })
  messageParams!: MessageParams | null;
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
  @Field(() => String, { nullable: true, description: "why the run failed, in Danish" }) error!:
    | string
    | null;
  @Field(() => String, { nullable: true, description: FAILURE_KEY_DOC }) errorKey!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: FAILURE_PARAMS_DOC })
  errorParams!: MessageParams | null;
}
