import { GraphQLDateTimeISO, GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";

@ObjectType()
export class ActivityLogEntry {
  @Field(() => ID) id!: string;
  @Field(() => String) action!: string;
  @Field(() => String) description!: string;
  @Field(() => String, { nullable: true }) userEmail!: string | null;
  @Field(() => GraphQLDateTimeISO) timestamp!: Date;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata!: Record<string, unknown> | null;
}

@ObjectType({ description: "one page of the filtered activity log, newest first" })
export class ActivityPage {
  @Field(() => [ActivityLogEntry]) entries!: ActivityLogEntry[];
  @Field(() => Int, { description: "entries matching the filter" }) total!: number;
  @Field(() => Boolean) hasMore!: boolean;
}
