import { GraphQLDateTimeISO, GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, ObjectType } from "type-graphql";

@ObjectType()
export class ActivityLogEntry {
  @Field(() => ID) id!: string;
  @Field(() => String) action!: string;
  @Field(() => String) description!: string;
  @Field(() => String, { nullable: true }) userEmail!: string | null;
  @Field(() => GraphQLDateTimeISO) timestamp!: Date;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata!: Record<string, unknown> | null;
}
