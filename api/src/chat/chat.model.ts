/**
 * chat_sessions, chat_messages (spec §3, plus the assistant message's answer state) and knowledge_gaps.
 * userId is stored as an ObjectId, like every reference to a user (older string ids are converted on start:
 * db/migrations.ts).
 */
import mongoose, { type HydratedDocument, type InferSchemaType, Schema } from "mongoose";

export const MESSAGE_ROLES = ["user", "assistant"] as const;
export const MESSAGE_STATUSES = ["pending", "streaming", "complete", "stopped", "error"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A session's scope (chat.scope.ts): which articles its questions are answered from; null/absent = all. */
const scopeSchema = new Schema(
  {
    kind: { type: String, enum: ["CATEGORY", "ARTICLES", "BOOKMARKS"], required: true },
    category: { type: String, default: null },
    /** the chosen articles with their titles when chosen (ARTICLES) */
    articles: {
      type: [new Schema({ id: String, title: String }, { _id: false })],
      default: [],
    },
  },
  { _id: false },
);

const sessionSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    /** the public id (spec: session_id); a random UUID, never the ObjectId */
    sessionId: { type: String, required: true, unique: true },
    title: { type: String, default: null },
    /** false until the first question named the session (or the user renamed it) */
    titled: { type: Boolean, default: false },
    /** false until the first question (a new session needs no history lookup); absent on old documents */
    hasMessages: { type: Boolean },
    /** the last message of the shown branch (chat.branches.ts); absent: the newest message */
    activeLeafId: { type: Schema.Types.ObjectId },
    /**
     * raised after every insert of messages (a send, an edit, a regeneration): a process keeps a session's place
     * tree while this is unchanged (chat.place-cache.ts); absent: 0
     */
    placeVersion: { type: Number },
    /**
     * the messages it holds, every branch (chat.message-count.ts: bounded by ChatLimits.messagesPerSession);
     * absent on sessions from before the count, which are counted at their next question
     */
    messageCount: { type: Number },
    createdAt: { type: Date, required: true },
    lastUpdated: { type: Date, required: true },
    /** the scope of its questions until changed (null = all articles) */
    scope: { type: scopeSchema, default: null },
  },
  { collection: "chat_sessions", versionKey: false },
);

const citationSchema = new Schema(
  {
    number: { type: Number, required: true },
    articleId: { type: String, required: true },
    title: { type: String, required: true },
    headingPath: { type: [String], default: [] },
    url: { type: String, default: null },
    passage: { type: String, default: "" },
    updatedAt: { type: Date, default: null },
  },
  { _id: false },
);

const freshnessSchema = new Schema(
  {
    number: Number,
    articleId: String,
    title: String,
    updatedAt: Date,
    message: String,
  },
  { _id: false },
);

const messageSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    sessionId: { type: String, required: true, index: true },
    role: { type: String, enum: MESSAGE_ROLES, required: true },
    content: { type: String, default: "" },
    timestamp: { type: Date, required: true },
    /** the message before it in its branch (chat.tree.ts); null for a first question, absent on old messages */
    parentId: { type: Schema.Types.ObjectId },
    // ---- assistant messages only ----
    /** the user message this answers (retry regenerates from it) */
    replyTo: { type: Schema.Types.ObjectId, default: null },
    status: { type: String, enum: MESSAGE_STATUSES, default: null },
    citations: { type: [citationSchema], default: undefined },
    usedNumbers: { type: [Number], default: undefined },
    mode: { type: String, default: null },
    error: {
      type: new Schema({ code: String, message: String, retryable: Boolean }, { _id: false }),
      default: null,
    },
    knowledgeGap: { type: Boolean, default: undefined },
    freshnessWarnings: { type: [freshnessSchema], default: undefined },
    /** suggested follow-up questions (answer/follow-ups.ts) */
    followUps: { type: [String], default: undefined },
    /** the scope the answer was made in (null = all articles) */
    scope: { type: scopeSchema, default: undefined },
    feedback: {
      type: new Schema(
        { rating: { type: String, enum: ["up", "down"] }, comment: String, at: Date },
        { _id: false },
      ),
      default: null,
    },
    /** the process generating it, and when it last showed life (crash recovery) */
    worker: { type: String, default: null },
    heartbeatAt: { type: Date, default: null },
  },
  { collection: "chat_messages", versionKey: false },
);
messageSchema.index({ sessionId: 1, timestamp: 1 });
messageSchema.index({ status: 1 });
// the admin statistics: messages since a moment (today, the last 30 days) and the rated answers
messageSchema.index({ timestamp: 1 });
messageSchema.index({ "feedback.at": -1 }, { sparse: true });

const gapSchema = new Schema(
  {
    question: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    sessionId: { type: String, required: true },
    messageId: { type: Schema.Types.ObjectId, default: null },
    timestamp: { type: Date, required: true },
  },
  { collection: "knowledge_gaps", versionKey: false },
);
gapSchema.index({ timestamp: -1 });

export type ChatSessionFields = InferSchemaType<typeof sessionSchema>;
export type ChatSessionDoc = HydratedDocument<ChatSessionFields>;
export type ChatMessageFields = InferSchemaType<typeof messageSchema>;
export type ChatMessageDoc = HydratedDocument<ChatMessageFields>;

export const ChatSessionModel = mongoose.model("ChatSession", sessionSchema);
export const ChatMessageModel = mongoose.model("ChatMessage", messageSchema);
export const KnowledgeGapModel = mongoose.model("KnowledgeGap", gapSchema);
