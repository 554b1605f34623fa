/** GraphQL door to the knowledge service: every read needs a signed-in user; editing needs the admin. */
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { presentArticle } from "./article.presenter";
import {
  KnowledgeArticle,
  KnowledgeArticleInput,
  KnowledgeCategory,
  KnowledgeSearchResult,
  RecentSearch,
} from "./knowledge.types";

@Resolver()
export class KnowledgeResolver {
  @Authorized()
  @Query(() => [KnowledgeCategory], {
    description: "Økonomi, Procedurer, Roller, Sagsbehandling, then any other",
  })
  knowledgeCategories(@Ctx() ctx: GraphQLContext) {
    return ctx.services.knowledge.categories();
  }

  @Authorized()
  @Query(() => [KnowledgeArticle], { description: "by title; all articles when no category is given" })
  async knowledgeArticles(
    @Arg("category", () => String, { nullable: true }) category: string | null | undefined,
    @Ctx() ctx: GraphQLContext,
  ) {
    return (await ctx.services.knowledge.listArticles(category)).map(presentArticle);
  }

  @Authorized()
  @Query(() => KnowledgeArticle, {
    description: "counts a view of its category; NOT_FOUND for an unknown id",
  })
  async knowledgeArticle(@Arg("id", () => ID) id: string, @Ctx() ctx: GraphQLContext) {
    return presentArticle(await ctx.services.knowledge.viewArticle(currentAuth(ctx).identity, id));
  }

  @Authorized()
  @Query(() => KnowledgeSearchResult, {
    description: "kept in the user's recent searches and the activity log",
  })
  async searchKnowledge(
    @Arg("query", () => String) query: string,
    @Arg("category", () => String, { nullable: true }) category: string | null | undefined,
    @Arg("limit", () => Int, { nullable: true, description: "1-100, default 20" }) limit:
      | number
      | null
      | undefined,
    @Arg("offset", () => Int, { nullable: true }) offset: number | null | undefined,
    @Ctx() ctx: GraphQLContext,
  ) {
    const res = await ctx.services.knowledge.search(currentAuth(ctx).identity, {
      query,
      category,
      limit,
      offset,
    });
    return { ...res, hits: res.hits.map((h) => ({ ...h, article: presentArticle(h.article) })) };
  }

  @Authorized()
  @Query(() => [RecentSearch], {
    description: "the signed-in user's last searches, newest first (at most 20)",
  })
  myRecentSearches(
    @Arg("limit", () => Int, { nullable: true }) limit: number | null | undefined,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.knowledge.recentSearches(String(currentAuth(ctx).user._id), limit ?? null);
  }

  @Authorized()
  @Mutation(() => Int, { description: "forget the signed-in user's recent searches; returns how many" })
  clearMyRecentSearches(@Ctx() ctx: GraphQLContext) {
    return ctx.services.knowledge.clearRecentSearches(String(currentAuth(ctx).user._id));
  }

  @Authorized("ADMIN")
  @Mutation(() => KnowledgeArticle)
  async createKnowledgeArticle(
    @Arg("input", () => KnowledgeArticleInput) input: KnowledgeArticleInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return presentArticle(await ctx.services.knowledge.createArticle(currentAuth(ctx).user, input));
  }

  @Authorized("ADMIN")
  @Mutation(() => KnowledgeArticle)
  async updateKnowledgeArticle(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => KnowledgeArticleInput) input: KnowledgeArticleInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return presentArticle(await ctx.services.knowledge.updateArticle(currentAuth(ctx).user, id, input));
  }

  @Authorized("ADMIN")
  @Mutation(() => Boolean, { description: "also removes the article from everyone's bookmarks" })
  async deleteKnowledgeArticle(
    @Arg("id", () => ID) id: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.knowledge.deleteArticle(currentAuth(ctx).user, id);
    return true;
  }
}
