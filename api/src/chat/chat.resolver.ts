/** GraphQL door to the chat: thin, every rule is in ChatService. */
import { NEW_SESSION_TITLE } from "@vidensbank/shared";
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import { Errors } from "../errors";
import type { Topics } from "../events/bus";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX } from "./chat.pages";
import {
  ChatMessage,
  ChatMessageEvent,
  ChatScopeInput,
  ChatSession,
  FeedbackRating,
  SendMessagePayload,
} from "./chat.types";

type EventPayload = Topics["CHAT_MESSAGE_EVENT"];

/** the signed-in user's id, from the cached account: no user document is made for a chat operation */
const uid = (ctx: GraphQLContext) => String(currentAuth(ctx).identity._id);

@Resolver()
export class ChatResolver {
  @Authorized()
  @Query(() => [ChatSession], { description: "the signed-in user's chat sessions, most recently used first" })
  sessions(@Ctx() ctx: GraphQLContext) {
    return ctx.services.chat.listSessions(uid(ctx));
  }

  @Authorized()
  @Query(() => [ChatMessage], {
    description:
      "a page of the shown branch, oldest first, including answers still being generated: the newest `limit` " +
      "messages, or those before `before`. Earlier messages exist when the first has a parentId: ask again " +
      "with before = its id",
  })
  messages(
    @Arg("sessionId", () => ID) sessionId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg("before", () => ID, {
      nullable: true,
      description: "a message of the shown branch: the page ends just before it (NOT_FOUND if not on it)",
    })
    before?: string | null,
    @Arg("limit", () => Int, {
      nullable: true,
      description: `messages in the page: default ${MESSAGE_PAGE_DEFAULT}, clamped to 1-${MESSAGE_PAGE_MAX}`,
    })
    limit?: number | null,
  ) {
    return ctx.services.chat.listMessages(uid(ctx), sessionId, { before, limit });
  }

  @Authorized()
  @Query(() => [ChatSession], { description: "'Søg i samtaler': title or message text, case-insensitive" })
  searchSessions(@Arg("query", () => String) query: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.chat.searchSessions(uid(ctx), query);
  }

  @Authorized()
  @Query(() => String, { description: "the session as a Markdown document" })
  exportSession(@Arg("sessionId", () => ID) sessionId: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.chat.exportSession(uid(ctx), sessionId);
  }

  @Authorized()
  @Mutation(() => ChatSession, {
    description: `a new session titled '${NEW_SESSION_TITLE}' unless a title is given`,
  })
  createSession(
    @Arg("title", () => String, { nullable: true }) title: string | null | undefined,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.chat.createSession(uid(ctx), title);
  }

  @Authorized()
  @Mutation(() => ChatSession)
  renameSession(
    @Arg("sessionId", () => ID) sessionId: string,
    @Arg("title", () => String) title: string,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.chat.renameSession(uid(ctx), sessionId, title);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: "deletes the session with its messages" })
  async deleteSession(@Arg("sessionId", () => ID) sessionId: string, @Ctx() ctx: GraphQLContext) {
    await ctx.services.chat.deleteSession(uid(ctx), sessionId);
    return true;
  }

  @Authorized()
  @Mutation(() => SendMessagePayload, {
    description: "stores the question and starts the answer; TOO_MANY_REQUESTS when 2 answers are in flight",
  })
  sendMessage(
    @Arg("sessionId", () => ID) sessionId: string,
    @Arg("content", () => String) content: string,
    @Ctx() ctx: GraphQLContext,
    @Arg("scope", () => ChatScopeInput, { nullable: true, description: "saved on the session first" })
    scope?: ChatScopeInput | null,
  ) {
    return ctx.services.chat.sendMessage(uid(ctx), sessionId, content, scope ?? undefined);
  }

  @Authorized()
  @Mutation(() => ChatSession, { description: "the scope of the session's questions, kept until changed" })
  setChatScope(
    @Arg("sessionId", () => ID) sessionId: string,
    @Arg("scope", () => ChatScopeInput) scope: ChatScopeInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.chat.setChatScope(uid(ctx), sessionId, scope);
  }

  @Authorized()
  @Mutation(() => ChatMessage, { description: "stop generating; the partial answer is kept as stopped" })
  stopMessage(@Arg("messageId", () => ID) messageId: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.chat.stopMessage(uid(ctx), messageId);
  }

  @Authorized()
  @Mutation(() => ChatMessage, { description: "regenerate an answer in state error or stopped" })
  retryMessage(@Arg("messageId", () => ID) messageId: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.chat.retryMessage(uid(ctx), messageId);
  }

  @Authorized()
  @Mutation(() => SendMessagePayload, {
    description:
      "edit a question: a new question beside it (a branch) with its pending answer; the old stays",
  })
  editMessage(
    @Arg("messageId", () => ID) messageId: string,
    @Arg("content", () => String) content: string,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.chat.editMessage(uid(ctx), messageId, content);
  }

  @Authorized()
  @Mutation(() => ChatMessage, { description: "a new answer (pending) beside an answer; the old one stays" })
  regenerateMessage(@Arg("messageId", () => ID) messageId: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.chat.regenerateMessage(uid(ctx), messageId);
  }

  @Authorized()
  @Mutation(() => [ChatMessage], {
    description: "show the branch through a message; returns the shown thread's newest page (as messages)",
  })
  switchBranch(@Arg("messageId", () => ID) messageId: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.chat.switchBranch(uid(ctx), messageId);
  }

  @Authorized()
  @Mutation(() => ChatMessage, { description: "thumbs up/down with an optional comment on an answer" })
  setFeedback(
    @Arg("messageId", () => ID) messageId: string,
    @Arg("rating", () => FeedbackRating) rating: FeedbackRating,
    @Arg("comment", () => String, { nullable: true }) comment: string | null | undefined,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.chat.setFeedback(uid(ctx), messageId, rating, comment);
  }

  @Subscription(() => ChatMessageEvent, {
    description:
      "answer events of one of the signed-in user's sessions: CREATED, each DELTA, then the outcome",
    // checked once when subscribing: not signed in → UNAUTHENTICATED, not the user's session → NOT_FOUND
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      if (!ctx.user) throw Errors.unauthenticated();
      return ctx.services.chat.sessionEvents(String(ctx.user._id), String(args.sessionId));
    },
  })
  chatMessageEvents(
    @Arg("sessionId", () => ID) _sessionId: string,
    @Root() event: EventPayload,
  ): EventPayload {
    return event;
  }
}
