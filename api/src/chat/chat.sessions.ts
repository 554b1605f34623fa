/**
 * The stored conversations: sessions and their messages, who owns them, search over them and export. A session
 * or message of another user answers NOT_FOUND, exactly like one that does not exist (ownSession, ownMessage:
 * the one place for that rule, also used by sending and the live events).
 */
import { randomUUID } from "node:crypto";
import { CHAT_SESSIONS_PER_USER_MAX, isUntitledTitle, messageSays } from "@vidensbank/shared";
import { recordActivity } from "../activity/activity.service";
import { toObjectId } from "../db/ids";
import { countPerUser } from "../db/per-user";
import { Errors } from "../errors";
import { logger } from "../logger";
import { escapeRegExp } from "../util";
import { sessionsMatchingShown } from "./chat.branches";
import { sessionToMarkdown } from "./chat.export";
import { ChatMessageModel, ChatSessionModel, KnowledgeGapModel, type MessageStatus } from "./chat.model";
import { ownMessage, ownSession } from "./chat.ownership";
import { type MessagePage, pageLimit, shownPage } from "./chat.pages";
import { placeTrees } from "./chat.place-cache";
import { type ChatMessageView, type ChatSessionView, presentMessage, presentSession } from "./chat.presenter";
import { cleanSearchQuery, cleanTitle, IN_PROGRESS, NEW_SESSION_TITLE, userOid } from "./chat.rules";
import { forgetSessionCount, giveSessionPlace, takeSessionPlace } from "./chat.session-count";

/**
 * at most this many messages in a Markdown export, the newest (a note says how many older ones are left out): a
 * long answer with its sources is a few kB, so the document stays far below the 8 MB response limit
 */
export const EXPORT_MAX_MESSAGES = 1_000;
/**
 * The session list (and a session search) holds the user's newest this many sessions. A user has at most
 * CHAT_SESSIONS_PER_USER_MAX (chat.session-count.ts), but every chat page lists them: at 5,000 one list cost the
 * server ~0.3–0.5 s. An older session still opens by its id (a link, a share).
 */
export const SESSIONS_LISTED_MAX = 500;

/** What a page of messages is asked with (chat.pages.ts); `limit` is clamped to 1…MESSAGE_PAGE_MAX. */
export interface MessagePageQuery {
  /** a message id of the shown branch: the page ends just before it (absent: the newest page) */
  before?: string | null;
  limit?: number | null;
  /** false (REST): answers still being generated are left out of the page */
  includeInProgress?: boolean;
}

export interface ChatSessionsDeps {
  /** the user's e-mail for the activity log */
  emailOf(userId: string): Promise<string | null>;
  /** stop the answers generating in a session and wait until they are stored (before it is deleted) */
  stopAnswersIn(sessionId: string): Promise<void>;
  /** the session is deleted: other features remove what they hold of it (shares) */
  sessionDeleted?(sessionId: string): Promise<void>;
  /** the most sessions a user may have (ChatLimits.sessionsPerUser); default CHAT_SESSIONS_PER_USER_MAX */
  sessionsPerUser?: number;
}

export class ChatSessions {
  constructor(private readonly deps: ChatSessionsDeps) {}

  /**
   * Create a session (NEW_SESSION_TITLE unless a title is given). CHAT_SESSION_LIMIT when the user already has
   * `sessionsPerUser` sessions (counted in the store: chat.session-count.ts).
   */
  async createSession(userId: string, title?: string | null): Promise<ChatSessionView> {
    const clean = title === undefined || title === null ? null : cleanTitle(title, true);
    const uid = userOid(userId);
    await takeSessionPlace(userId, this.deps.sessionsPerUser ?? CHAT_SESSIONS_PER_USER_MAX);
    const now = new Date();
    const doc = await ChatSessionModel.create({
      userId: uid,
      sessionId: randomUUID(),
      title: clean ?? NEW_SESSION_TITLE,
      // an explicit title other than the default counts as chosen by the user
      titled: !isUntitledTitle(clean),
      hasMessages: false,
      messageCount: 0,
      createdAt: now,
      lastUpdated: now,
    }).catch(async (err) => {
      // not given back, the count runs one high (the user has one session fewer than the cap allows)
      await giveSessionPlace(userId).catch((e) =>
        logger.warn({ err: e }, "chat: session place not given back"),
      );
      throw err;
    });
    await recordActivity({
      action: "chat",
      message: { key: "log.chat" },
      userId,
      userEmail: await this.deps.emailOf(userId),
      metadata: { sessionId: doc.sessionId },
    });
    return presentSession(doc.toObject());
  }

  /** The user's sessions, most recently used first. */
  async listSessions(userId: string): Promise<ChatSessionView[]> {
    const docs = await ChatSessionModel.find({ userId: userOid(userId) })
      .sort({ lastUpdated: -1, _id: -1 })
      .limit(SESSIONS_LISTED_MAX)
      .lean();
    return docs.map(presentSession);
  }

  /** One session of the user; NOT_FOUND for another user's or an unknown id. */
  async getSession(userId: string, sessionId: string): Promise<ChatSessionView> {
    return presentSession(await ownSession(userId, sessionId));
  }

  /** Rename a session (1–60 characters after trimming). */
  async renameSession(userId: string, sessionId: string, title: string): Promise<ChatSessionView> {
    const clean = cleanTitle(title, false) as string;
    await ownSession(userId, sessionId);
    const doc = await ChatSessionModel.findOneAndUpdate(
      { sessionId, userId: userOid(userId) },
      { $set: { title: clean, titled: true, lastUpdated: new Date() } },
      { returnDocument: "after" },
    ).lean();
    if (!doc) throw Errors.notFound("chat.sessionNotFound");
    return presentSession(doc);
  }

  /** Delete a session with its messages; answers still generating in it are stopped first. */
  async deleteSession(userId: string, sessionId: string): Promise<void> {
    await ownSession(userId, sessionId);
    await this.deps.stopAnswersIn(sessionId);
    await ChatMessageModel.deleteMany({ sessionId, userId: userOid(userId) });
    placeTrees.forgetSession(userId, sessionId);
    const { deletedCount } = await ChatSessionModel.deleteOne({ sessionId, userId: userOid(userId) });
    // only the deletion that removed it gives its place back (two deletions at once)
    if (deletedCount === 1) await giveSessionPlace(userId);
    await this.deps.sessionDeleted?.(sessionId);
  }

  /**
   * 'Søg i samtaler': the user's sessions whose title or any message contains the text (case-insensitive,
   * literal: the text is escaped, never a pattern). Most recently used first.
   */
  async searchSessions(userId: string, query: string): Promise<ChatSessionView[]> {
    const q = cleanSearchQuery(query);
    if (!q) return this.listSessions(userId);
    const uid = userOid(userId);
    const re = { $regex: escapeRegExp(q), $options: "i" };
    // an untitled session is found by the words it is shown with, in either language ("new chat", "ny chat")
    const untitled = messageSays("chat.untitled", q) ? [{ title: NEW_SESSION_TITLE }] : [];
    // a match counts only on the shown branch (chat.branches.ts)
    const inMessages = await sessionsMatchingShown(uid, re);
    const docs = await ChatSessionModel.find({
      userId: uid,
      $or: [{ title: re }, { sessionId: { $in: inMessages } }, ...untitled],
    })
      .sort({ lastUpdated: -1, _id: -1 })
      .limit(SESSIONS_LISTED_MAX)
      .lean();
    return docs.map(presentSession);
  }

  /** The session as a Markdown document: the newest EXPORT_MAX_MESSAGES messages of its shown branch. */
  async exportSession(userId: string, sessionId: string): Promise<string> {
    const session = await this.getSession(userId, sessionId);
    const { messages, earlier } = await this.newestMessages(userId, sessionId, EXPORT_MAX_MESSAGES);
    return sessionToMarkdown(session, messages, new Date(), earlier);
  }

  /**
   * A page of the session's shown branch (chat.branches.ts), oldest first: the `limit` messages before `before`,
   * the newest without it. Earlier messages exist when the first one has a parentId (chat.pages.ts).
   * `includeInProgress: false` (REST) leaves out answers still being generated: old clients poll until the last
   * message is the assistant's, so it must appear only when done.
   */
  async listMessages(
    userId: string,
    sessionId: string,
    { before, limit, includeInProgress = true }: MessagePageQuery = {},
  ): Promise<ChatMessageView[]> {
    const { messages } = await shownPage(userId, sessionId, { before, limit: pageLimit(limit) });
    return includeInProgress
      ? messages
      : messages.filter((m) => !IN_PROGRESS.includes(m.status as MessageStatus));
  }

  /**
   * The newest `count` messages of the shown branch, for callers with their own bound (the export; a share reads
   * one more than it may hold, to know it is too large). Read as a page: the places of all, `count` in full.
   */
  newestMessages(userId: string, sessionId: string, count: number): Promise<MessagePage> {
    return shownPage(userId, sessionId, { limit: Math.max(1, Math.trunc(count)) });
  }

  /** One message of the user; NOT_FOUND for another user's or an unknown id. */
  async getMessage(userId: string, messageId: string): Promise<ChatMessageView> {
    return presentMessage(await ownMessage(userId, messageId));
  }

  /** Sessions per user (the admin's user list). */
  sessionCountsByUser(): Promise<Map<string, number>> {
    return countPerUser(ChatSessionModel as never);
  }

  /** Remove everything the chat holds of a user: sessions, messages, knowledge gaps (the user is deleted). */
  async removeUserData(userId: string): Promise<void> {
    const id = toObjectId(userId);
    if (!id) return;
    await Promise.all([
      ChatSessionModel.deleteMany({ userId: id }),
      ChatMessageModel.deleteMany({ userId: id }),
      KnowledgeGapModel.deleteMany({ userId: id }),
      forgetSessionCount(String(id)),
    ]);
  }

  /** Knowledge gaps (questions the knowledge base could not answer), newest first, for the admin. */
  async listKnowledgeGaps(limit = 100) {
    const docs = await KnowledgeGapModel.find({})
      .sort({ timestamp: -1, _id: -1 })
      .limit(Math.min(Math.max(limit, 1), 1000))
      .lean();
    return docs.map((d) => ({
      id: String(d._id),
      question: d.question,
      userId: String(d.userId),
      sessionId: d.sessionId,
      timestamp: d.timestamp,
    }));
  }
}
