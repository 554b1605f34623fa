/** GraphQL types of bookmarks. */
import { GraphQLDateTimeISO } from "graphql-scalars";
import { Field, ID, ObjectType } from "type-graphql";

@ObjectType()
export class Bookmark {
  @Field(() => ID) id!: string;
  @Field(() => ID) articleId!: string;
  @Field(() => String, {
    description: "the title when bookmarked (kept current when the article is renamed)",
  })
  articleTitle!: string;
  @Field(() => GraphQLDateTimeISO) bookmarkedAt!: Date;
}

@ObjectType()
export class AddBookmarkPayload {
  @Field(() => Bookmark) bookmark!: Bookmark;
  @Field(() => Boolean, {
    description: "false when the article was already bookmarked (adding is idempotent)",
  })
  created!: boolean;
}
