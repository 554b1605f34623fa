import type { MessageParams } from "@vidensbank/shared";
import { GraphQLDateTimeISO, GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";

/** The schema's words for an entry's key and parameters (here and on the admin's RecentActivity). */
export const MESSAGE_KEY_DOC =
  "the description's message key (@vidensbank/shared messages.ts, log.*), to show it in the reader's language; null for an entry from before the keys";
export const MESSAGE_PARAMS_DOC =
  "the values of the key's placeholders (strings of at most 200 characters or numbers; user data, shown as text)";

@ObjectType()
export class ActivityLogEntry {
  @Field(() => ID) id!: string;
  @Field(() => String) action!: string;
  @Field(() => String, { description: "Danish; all that entries from before messageKey have" })
  description!: string;
  @Field(() => String, { nullable: true, description: MESSAGE_KEY_DOC }) messageKey!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: MESSAGE_PARAMS_DOC })
  messageParams!: MessageParams | null;
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
