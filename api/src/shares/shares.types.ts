/** GraphQL types of shared conversations (issue 17). */
import { GraphQLDateTimeISO } from "graphql-scalars";
import { Field, ID, ObjectType } from "type-graphql";
import { ChatMessage } from "../chat/chat.types";

@ObjectType({ description: "a read-only link to a snapshot of one of the user's conversations" })
export class ChatShare {
  @Field(() => ID, { description: "the random share id (the link's last part)" }) id!: string;
  @Field(() => ID) sessionId!: string;
  @Field(() => String, { description: "the conversation's title when shared" }) title!: string;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => String, { description: "the link to open: APP_URL/shared/<id>" }) url!: string;
  @Field(() => String, { nullable: true, description: "the owner's e-mail (admin list only)" })
  ownerEmail!: string | null;
}

@ObjectType({ description: "a shared conversation as it was at sharing time (read-only)" })
export class SharedChat {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => Boolean, {
    description: "the conversation had no title when shared (as ChatSession.untitled)",
  })
  untitled!: boolean;
  @Field(() => String, { description: "the owner's name" }) ownerName!: string;
  @Field(() => GraphQLDateTimeISO) sharedAt!: Date;
  @Field(() => [ChatMessage], { description: "oldest first; finished answers with their citations" })
  messages!: ChatMessage[];
}
