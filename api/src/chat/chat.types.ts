/** GraphQL types of the chat (type-graphql; explicit type functions everywhere). */
import { NEW_SESSION_TITLE } from "@vidensbank/shared";
import { GraphQLDateTimeISO } from "graphql-scalars";
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";

export enum ChatRole {
  user = "user",
  assistant = "assistant",
}
registerEnumType(ChatRole, { name: "ChatRole" });

export enum ChatMessageStatus {
  pending = "pending",
  streaming = "streaming",
  complete = "complete",
  stopped = "stopped",
  error = "error",
}
registerEnumType(ChatMessageStatus, {
  name: "ChatMessageStatus",
  description: "an assistant message's state; error and stopped can be retried",
});

export enum FeedbackRating {
  up = "up",
  down = "down",
}
registerEnumType(FeedbackRating, { name: "FeedbackRating" });

export enum ChatMessageEventType {
  CREATED = "CREATED",
  DELTA = "DELTA",
  COMPLETED = "COMPLETED",
  STOPPED = "STOPPED",
  ERROR = "ERROR",
  UPDATED = "UPDATED",
  TITLED = "TITLED",
}
registerEnumType(ChatMessageEventType, {
  name: "ChatMessageEventType",
  valuesConfig: {
    UPDATED: { description: "a finished message changed afterwards (its follow-up questions)" },
    TITLED: {
      description:
        "the session got the model's title for it (`title`; `messageId` is the question that named it): a client " +
        "shows it in its session list",
    },
  },
});

export enum ChatScopeKind {
  ALL = "ALL",
  CATEGORY = "CATEGORY",
  ARTICLES = "ARTICLES",
  BOOKMARKS = "BOOKMARKS",
}
registerEnumType(ChatScopeKind, {
  name: "ChatScopeKind",
  description: "which articles a session's questions are answered from",
});

@ObjectType()
export class ChatScopeArticle {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
}

@ObjectType({ description: "the articles a question is answered from" })
export class ChatScope {
  @Field(() => ChatScopeKind) kind!: ChatScopeKind;
  @Field(() => String, { nullable: true, description: "CATEGORY: the category" }) category!: string | null;
  @Field(() => [ChatScopeArticle], { description: "ARTICLES: the chosen articles (at most 20)" })
  articles!: ChatScopeArticle[];
  @Field(() => String, { description: "the server's Danish label, e.g. 'Kategori: Økonomi'" }) label!: string;
}

@InputType({ description: "a scope: CATEGORY needs category, ARTICLES needs 1-20 articleIds" })
export class ChatScopeInput {
  @Field(() => ChatScopeKind) kind!: ChatScopeKind;
  @Field(() => String, { nullable: true }) category?: string | null;
  @Field(() => [ID], { nullable: true }) articleIds?: string[] | null;
}

@ObjectType({ description: "a chat session (spec: session_id, title)" })
export class ChatSession {
  @Field(() => ID, { description: "the session id (same as sessionId)" }) id!: string;
  @Field(() => ID) sessionId!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => Boolean, {
    description: `no title yet (none, or '${NEW_SESSION_TITLE}'): clients show their own untitled text`,
  })
  untitled!: boolean;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO) lastUpdated!: Date;
  @Field(() => ChatScope, { description: "the scope of its questions until changed (kind ALL when unset)" })
  scope!: ChatScope;
}

@ObjectType({ description: "a source an answer cites as [number]" })
export class ChatCitation {
  @Field(() => Int) number!: number;
  @Field(() => ID) articleId!: string;
  @Field(() => String) title!: string;
  @Field(() => [String], { description: "headings from the article's top down to the passage" })
  headingPath!: string[];
  @Field(() => String, { description: "headingPath joined with ' › ' ('' for the intro)" }) heading!: string;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => String, { description: "the cited passage (shortened)" }) passage!: string;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) updatedAt!: Date | null;
}

@ObjectType()
export class ChatFreshnessWarning {
  @Field(() => Int) number!: number;
  @Field(() => ID) articleId!: string;
  @Field(() => String) title!: string;
  @Field(() => GraphQLDateTimeISO) updatedAt!: Date;
  @Field(() => String) message!: string;
}

@ObjectType()
export class ChatMessageError {
  @Field(() => String, {
    description:
      "LLM_RATE_LIMITED, LLM_UNAVAILABLE, LLM_TIMEOUT, LLM_STREAM_BROKEN, RETRIEVAL_FAILED, INTERRUPTED",
  })
  code!: string;
  @Field(() => String, { description: "Danish text for people" }) message!: string;
  @Field(() => Boolean) retryable!: boolean;
}

@ObjectType()
export class ChatFeedback {
  @Field(() => FeedbackRating) rating!: FeedbackRating;
  @Field(() => String, { nullable: true }) comment!: string | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) at!: Date | null;
}

@ObjectType()
export class ChatMessage {
  @Field(() => ID) id!: string;
  @Field(() => ID) sessionId!: string;
  @Field(() => ChatRole) role!: ChatRole;
  @Field(() => String, { description: "Markdown without HTML; [n] markers refer to citations" })
  content!: string;
  @Field(() => GraphQLDateTimeISO) timestamp!: Date;
  @Field(() => ChatMessageStatus, { nullable: true, description: "assistant messages only" })
  status!: ChatMessageStatus | null;
  @Field(() => ID, { nullable: true, description: "the question an assistant message answers" })
  replyTo!: string | null;
  @Field(() => [ChatCitation]) citations!: ChatCitation[];
  @Field(() => [Int], { description: "the source numbers cited in content, in order of first use" })
  usedNumbers!: number[];
  @Field(() => String, {
    nullable: true,
    description: "llm, retrieval (no model: quoted passages) or no_sources",
  })
  mode!: string | null;
  @Field(() => ChatMessageError, { nullable: true }) error!: ChatMessageError | null;
  @Field(() => Boolean, { description: "the knowledge base did not cover the question" })
  knowledgeGap!: boolean;
  @Field(() => [ChatFreshnessWarning]) freshnessWarnings!: ChatFreshnessWarning[];
  @Field(() => ChatFeedback, { nullable: true }) feedback!: ChatFeedback | null;
  @Field(() => ID, {
    nullable: true,
    description: "the message before it in its branch (null: first question)",
  })
  parentId!: string | null;
  @Field(() => Int, { description: "1-based position among the alternatives at this point ('2 / 3')" })
  siblingIndex!: number;
  @Field(() => Int, { description: "1 when there is no alternative" }) siblingCount!: number;
  @Field(() => [ID], { description: "the alternatives at this point, oldest first (itself included)" })
  siblingIds!: string[];
  @Field(() => [String], { description: "answers: up to 3 suggested follow-up questions ([] otherwise)" })
  followUps!: string[];
  @Field(() => ChatScope, { nullable: true, description: "assistant messages: the scope used (null = all)" })
  scope!: ChatScope | null;
}

@ObjectType()
export class SendMessagePayload {
  @Field(() => ChatSession, { description: "the session (named by its first question)" })
  session!: ChatSession;
  @Field(() => ChatMessage) userMessage!: ChatMessage;
  @Field(() => ChatMessage, { description: "pending; follow it with chatMessageEvents" })
  assistantMessage!: ChatMessage;
}

@ObjectType()
export class ChatMessageEvent {
  @Field(() => ChatMessageEventType) type!: ChatMessageEventType;
  @Field(() => ID) sessionId!: string;
  @Field(() => ID) messageId!: string;
  @Field(() => String, { nullable: true, description: "DELTA: the text increment" }) delta!: string | null;
  @Field(() => ChatMessage, {
    nullable: true,
    description: "CREATED/COMPLETED/STOPPED/ERROR/UPDATED: the stored message",
  })
  message!: ChatMessage | null;
  @Field(() => ID, {
    nullable: true,
    description:
      "CREATED: the parent of the answer's question (null for a session's first question and on the other types): " +
      "a client that does not list the question tells a new send's or edit's answer (its question hangs under " +
      "the shown branch's last message, or beside a shown message) from one on a branch it does not show",
  })
  questionParentId?: string | null;
  @Field(() => String, { nullable: true, description: "TITLED: the session's new title" })
  title?: string | null;
}
