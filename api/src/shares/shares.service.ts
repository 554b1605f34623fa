/**
 * Read-only shares of a conversation (issue 17). A share is a SNAPSHOT: the messages the owner's chat showed at
 * sharing time (chatMessages: the shown branch), finished answers only, each with its citations copied so they
 * keep working. Any signed-in user may open a share by its id; nobody changes anything through it. The owner
 * lists and revokes their shares, the admin lists and revokes all. A revoked share, a deleted session or a
 * deleted owner answers NOT_FOUND (the hooks in services.ts delete the shares with the session or the user);
 * a share of another user answers exactly like an unknown id.
 */
import { randomBytes } from "node:crypto";
import { isUntitledTitle, NEW_SESSION_TITLE } from "@vidensbank/shared";
import type mongoose from "mongoose";
import { recordActivity } from "../activity/activity.service";
import type { ChatMessageView, ChatSessionView } from "../chat/chat.presenter";
import { toObjectId } from "../db/ids";
import { Errors } from "../errors";
import { ChatShareModel } from "./share.model";
import {
  ADMIN_SHARES_MAX,
  SHARE_ID_BYTES,
  SHARE_MAX_CHARS,
  SHARE_MAX_MESSAGES,
  SHARE_MAX_PER_USER,
} from "./shares.limits";

/** A user acting on shares: the signed-in user (or the CLI's built-in admin). */
export interface ShareActor {
  _id: mongoose.Types.ObjectId;
  name: string;
  email: string;
  role: string;
}

export interface ChatShareView {
  id: string;
  sessionId: string;
  title: string;
  createdAt: Date;
  url: string;
  /** only in the admin's list */
  ownerEmail: string | null;
}

export interface SharedChatView {
  id: string;
  title: string;
  ownerName: string;
  sharedAt: Date;
  messages: ChatMessageView[];
}

export interface SharesDeps {
  /** APP_URL (read when a link is made): share links are `${appUrl}/shared/<id>` */
  config: { readonly appUrl: string };
  chat: {
    getSession(userId: string, sessionId: string): Promise<ChatSessionView>;
    listMessages(userId: string, sessionId: string): Promise<ChatMessageView[]>;
  };
  /** owners' names and e-mails, from the users service */
  users: {
    nameOf(userId: string): Promise<string | null>;
    emailsOf(userIds: string[]): Promise<Map<string, string>>;
  };
}

interface ShareRow {
  shareId: string;
  userId: mongoose.Types.ObjectId;
  sessionId: string;
  title: string;
  createdAt: Date;
  messages?: unknown[];
}

const FINISHED = new Set(["complete", "stopped"]);
const SHARE_ID_RE = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The messages of a snapshot: finished answers (complete or stopped) and the questions they answer; a question
 * whose answer is still running or failed is left out with it. The owner's feedback is not shared.
 */
export function snapshotMessages(messages: ChatMessageView[]): ChatMessageView[] {
  const dropped = new Set<string>();
  const kept = new Set<string>();
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    const set = m.status && FINISHED.has(m.status) ? kept : dropped;
    if (m.replyTo) set.add(m.replyTo);
  }
  return messages
    .filter((m) =>
      m.role === "assistant"
        ? m.status !== null && FINISHED.has(m.status)
        : !dropped.has(m.id) || kept.has(m.id),
    )
    .map((m) => ({ ...readOnly(m), citations: m.citations.map((c) => ({ ...c })) }));
}

/**
 * A message as a share shows it: one branch without alternatives to switch to, nothing to ask or rate
 * (no follow-up questions, no feedback). Also fills what snapshots taken before branches lacked.
 */
function readOnly(m: ChatMessageView): ChatMessageView {
  return { ...m, feedback: null, siblingIndex: 1, siblingCount: 1, siblingIds: [m.id], followUps: [] };
}

function idOf(shareId: unknown): string | null {
  return typeof shareId === "string" && SHARE_ID_RE.test(shareId) ? shareId : null;
}

export class SharesService {
  constructor(private readonly deps: SharesDeps) {}

  private present(row: ShareRow, ownerEmail: string | null = null): ChatShareView {
    return {
      id: row.shareId,
      sessionId: row.sessionId,
      title: row.title,
      createdAt: row.createdAt,
      url: `${this.deps.config.appUrl}/shared/${row.shareId}`,
      ownerEmail,
    };
  }

  /** Share the user's session as it is now. NOT_FOUND for another user's or an unknown session. */
  async share(user: ShareActor, sessionId: unknown): Promise<ChatShareView> {
    const userId = String(user._id);
    if (typeof sessionId !== "string") throw Errors.notFound("chat.sessionNotFound");
    const session = await this.deps.chat.getSession(userId, sessionId);
    const messages = snapshotMessages(await this.deps.chat.listMessages(userId, sessionId));
    if (!messages.some((m) => m.role === "assistant")) throw Errors.badInput("shares.empty");
    if (messages.length > SHARE_MAX_MESSAGES || JSON.stringify(messages).length > SHARE_MAX_CHARS) {
      throw Errors.badInput("shares.tooLarge");
    }
    if ((await ChatShareModel.countDocuments({ userId: user._id })) >= SHARE_MAX_PER_USER) {
      throw Errors.conflict("shares.tooMany", { max: SHARE_MAX_PER_USER });
    }
    const doc = await ChatShareModel.create({
      shareId: randomBytes(SHARE_ID_BYTES).toString("base64url"),
      userId: user._id,
      sessionId,
      title: session.title ?? NEW_SESSION_TITLE,
      createdAt: new Date(),
      messages,
    });
    await recordActivity({
      action: "chat_share",
      message: {
        key: isUntitledTitle(doc.title) ? "log.chatShareUntitled" : "log.chatShare",
        params: { name: user.name, title: doc.title },
      },
      userEmail: user.email,
      userId,
      metadata: { shareId: doc.shareId, sessionId, messages: messages.length },
    });
    return this.present(doc.toObject() as ShareRow);
  }

  /** The user's shares, newest first. */
  async list(user: ShareActor): Promise<ChatShareView[]> {
    const rows = await ChatShareModel.find({ userId: user._id }, { messages: 0 })
      .sort({ createdAt: -1, _id: -1 })
      .lean();
    return rows.map((r) => this.present(r as ShareRow));
  }

  /** Every share with its owner's e-mail, newest first (the admin). */
  async adminList(): Promise<ChatShareView[]> {
    const rows = (await ChatShareModel.find({}, { messages: 0 })
      .sort({ createdAt: -1, _id: -1 })
      .limit(ADMIN_SHARES_MAX)
      .lean()) as ShareRow[];
    const emails = await this.deps.users.emailsOf(rows.map((r) => String(r.userId)));
    return rows.map((r) => this.present(r, emails.get(String(r.userId)) ?? null));
  }

  /** A share opened read-only by any signed-in user; NOT_FOUND when revoked, unknown or its owner is gone. */
  async open(shareId: unknown): Promise<SharedChatView> {
    const id = idOf(shareId);
    const row = id ? ((await ChatShareModel.findOne({ shareId: id }).lean()) as ShareRow | null) : null;
    if (!row) throw Errors.notFound("shares.notFound");
    const ownerName = await this.deps.users.nameOf(String(row.userId));
    if (ownerName === null) throw Errors.notFound("shares.notFound");
    // the session's delete removes its shares; should one remain, it still answers like a revoked one
    const sessionGone = await this.deps.chat.getSession(String(row.userId), row.sessionId).then(
      () => false,
      () => true,
    );
    if (sessionGone) throw Errors.notFound("shares.notFound");
    const messages = (row.messages ?? []) as ChatMessageView[];
    return {
      id: row.shareId,
      title: row.title,
      ownerName,
      sharedAt: row.createdAt,
      // the snapshot speaks of the share, not of the owner's session
      messages: messages.map((m) => ({ ...readOnly(m), sessionId: row.shareId })),
    };
  }

  /**
   * Revoke a share: its owner, or an admin any share. Another user's share answers NOT_FOUND, exactly like an
   * unknown id.
   */
  async revoke(user: ShareActor, shareId: unknown): Promise<void> {
    const id = idOf(shareId);
    const filter = user.role === "admin" ? { shareId: id } : { shareId: id, userId: user._id };
    const row = id ? ((await ChatShareModel.findOneAndDelete(filter).lean()) as ShareRow | null) : null;
    if (!row) throw Errors.notFound("shares.notFound");
    const own = String(row.userId) === String(user._id);
    await recordActivity({
      action: "chat_share_revoke",
      message: {
        key: `${own ? "log.chatShareRevoke" : "log.chatShareRevokeOther"}${isUntitledTitle(row.title) ? "Untitled" : ""}`,
        params: { name: user.name, title: row.title },
      },
      userEmail: user.email,
      userId: String(user._id),
      metadata: { shareId: row.shareId, sessionId: row.sessionId, ownerId: String(row.userId) },
    });
  }

  /** A session was deleted (chat hook): its shares go. */
  async removeSharesOfSession(sessionId: string): Promise<void> {
    await ChatShareModel.deleteMany({ sessionId });
  }

  /** A user is being deleted (users hook): their shares go. */
  async removeSharesOfUser(userId: string): Promise<void> {
    const id = toObjectId(userId);
    if (id) await ChatShareModel.deleteMany({ userId: id });
  }
}
