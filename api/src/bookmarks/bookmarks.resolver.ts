/** GraphQL door to the signed-in user's bookmarks. */
import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { presentArticle } from "../knowledge/article.presenter";
import { KnowledgeArticle } from "../knowledge/knowledge.types";
import {
  addBookmark,
  type BookmarkView,
  isBookmarked,
  listBookmarks,
  removeBookmark,
} from "./bookmarks.service";
import { AddBookmarkPayload, Bookmark } from "./bookmarks.types";

@Resolver(() => Bookmark)
export class BookmarksResolver {
  @FieldResolver(() => KnowledgeArticle, {
    nullable: true,
    description: "the article now (null if it is gone)",
  })
  async article(@Root() bookmark: BookmarkView, @Ctx() ctx: GraphQLContext) {
    const article = await ctx.services.knowledge.peekArticle(bookmark.articleId);
    return article ? presentArticle(article) : null;
  }

  @Authorized()
  @Query(() => [Bookmark], { description: "the signed-in user's bookmarks, newest first" })
  myBookmarks(@Ctx() ctx: GraphQLContext) {
    return listBookmarks(currentAuth(ctx).user);
  }

  @Authorized()
  @Query(() => Boolean)
  isBookmarked(@Arg("articleId", () => ID) articleId: string, @Ctx() ctx: GraphQLContext) {
    return isBookmarked(currentAuth(ctx).user, articleId);
  }

  @Authorized()
  @Mutation(() => AddBookmarkPayload, { description: "idempotent; NOT_FOUND for an unknown article" })
  addBookmark(@Arg("articleId", () => ID) articleId: string, @Ctx() ctx: GraphQLContext) {
    return addBookmark(currentAuth(ctx).user, articleId);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: "NOT_FOUND when the article is not bookmarked by the user" })
  async removeBookmark(
    @Arg("articleId", () => ID) articleId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await removeBookmark(currentAuth(ctx).user, articleId);
    return true;
  }
}
