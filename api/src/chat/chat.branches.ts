/**
 * Branches of a conversation: edit a question, regenerate an answer, switch between the alternatives, and what
 * follows the shown branch (the messages listed, the history sent to the model, the search). The tree itself
 * is chat.tree.ts; sending is chat.send.ts (which asks this file for the new question's parent and history).
 *
 * Nothing is ever lost: an edit stores a new question beside the old one (same parent) with a pending answer,
 * a regenerate stores a new answer beside the old one (same question). The session remembers the shown branch
 * by its last message (`activeLeafId`).
 */
import type mongoose from "mongoose";
import { AppError, Errors } from "../errors";
import { prefetchRetrieval, validateChatMessage } from "./answer";
import type { ChatUserCache } from "./chat.cache";
import { type HistoryDoc, historyFor, loadHistoryTree } from "./chat.history";
import type { ChatLimits } from "./chat.limits";
import { inRoom, takePlaces } from "./chat.message-count";
import { ChatMessageModel, ChatSessionModel, type MessageStatus } from "./chat.model";
import { ownMessage } from "./chat.ownership";
import { loadPlaceTree, MESSAGE_PAGE_DEFAULT, presentPage, slicePage, withBranch } from "./chat.pages";
import { type ChatMessageView, type ChatSessionView, presentMessage, presentSession } from "./chat.presenter";
import type { RetrieveFn } from "./chat.retrieval";
import { IN_PROGRESS, objectId, userOid } from "./chat.rules";
import type { AnswerRunner } from "./chat.runner";
import { type ChatScopes, scopedRetrieve } from "./chat.scope";
import { scopeNote, storedScope } from "./chat.scope-view";
import { modelCollection } from "./chat.store";
import { MessageTree, type TreeMessage } from "./chat.tree";

/** at most this many alternatives at one point (edits of a question, or answers to it) */
export const BRANCHES_PER_POINT_MAX = 20;
/** at most this many sessions are checked for a match on their shown branch per search */
export const SEARCH_BRANCH_SESSIONS_MAX = 500;

type Oid = mongoose.Types.ObjectId;
type MessageDoc = Awaited<ReturnType<typeof ownMessage>>;

/**
 * Where a new question goes: after the session's shown leaf as it was when the question claimed its place
 * (ownSession swaps activeLeafId atomically, so two questions sent at once line up), or after the newest message
 * of an old session that has no activeLeafId.
 */
export function newQuestionParent(previousLeaf: unknown, tree: MessageTree<TreeMessage>): string | null {
  if (previousLeaf) return String(previousLeaf);
  return tree.shownLeaf(null);
}

/**
 * The sessions (ids) of the user where a message matching `content` is on the shown branch ('Søg i samtaler'
 * follows what the user sees, not the branches put aside).
 */
export async function sessionsMatchingShown(
  uid: Oid,
  content: { $regex: string; $options: string },
): Promise<string[]> {
  const hits = await ChatMessageModel.find({ userId: uid, content }, { _id: 1, sessionId: 1 }).lean();
  const bySession = new Map<string, Set<string>>();
  for (const h of hits) {
    const set = bySession.get(h.sessionId) ?? new Set<string>();
    set.add(String(h._id));
    bySession.set(h.sessionId, set);
  }
  const ids = [...bySession.keys()].slice(0, SEARCH_BRANCH_SESSIONS_MAX);
  if (ids.length === 0) return [];
  const [sessions, docs] = await Promise.all([
    ChatSessionModel.find({ userId: uid, sessionId: { $in: ids } }, { sessionId: 1, activeLeafId: 1 }).lean(),
    ChatMessageModel.find(
      { userId: uid, sessionId: { $in: ids } },
      { _id: 1, sessionId: 1, parentId: 1, timestamp: 1 },
    ).lean(),
  ]);
  const docsOf = new Map<string, TreeMessage[]>();
  for (const d of docs) docsOf.set(d.sessionId, [...(docsOf.get(d.sessionId) ?? []), d as TreeMessage]);
  return sessions
    .filter((s) => {
      const tree = new MessageTree(docsOf.get(s.sessionId) ?? []);
      const matching = bySession.get(s.sessionId);
      return tree.shownBranch(idOf(s.activeLeafId)).some((d) => matching?.has(String(d._id)));
    })
    .map((s) => s.sessionId);
}

function idOf(value: unknown): string | null {
  return value ? String(value) : null;
}

export interface BranchResult {
  session: ChatSessionView;
  userMessage: ChatMessageView;
  assistantMessage: ChatMessageView;
}

/** What editing and regenerating need of the sender (chat.send.ts): the same limits and bookkeeping as a send. */
export interface BranchContext {
  runner: AnswerRunner;
  users: ChatUserCache;
  retrieve: RetrieveFn;
  /** the sessions' scopes: a branch is answered in the session's scope, like a send */
  scopes: ChatScopes;
  limits: ChatLimits;
  /** count as on its way to the model; returns the end of that (idempotent) */
  beginStarting(): () => void;
  closed(): boolean;
}

/** refused beyond BRANCHES_PER_POINT_MAX alternatives at one point */
function refuseTooManyBranches(tree: MessageTree<HistoryDoc>, id: string): void {
  if (tree.siblings(id).length >= BRANCHES_PER_POINT_MAX) {
    throw Errors.conflict("chat.tooManyBranches", { max: BRANCHES_PER_POINT_MAX });
  }
}

/** refused while an answer at this point is still being generated: stop it first */
function refuseWhileAnswering(tree: MessageTree<HistoryDoc>, ids: string[]): void {
  const busy = ids.some((id) => IN_PROGRESS.includes(tree.byId.get(id)?.status as MessageStatus));
  if (busy) throw Errors.conflict("chat.answerInProgress");
}

/**
 * Edit a question: a new question beside it (same parent) with a pending answer, shown from now on. The old
 * question and its answers stay. Another user's message, an answer, or an unknown id: NOT_FOUND alike.
 * CONFLICT chat.answerInProgress while the question's answer is still being generated (stop it first).
 */
export async function editQuestion(
  ctx: BranchContext,
  userId: string,
  messageId: string,
  content: unknown,
): Promise<BranchResult> {
  const valid = validateChatMessage(content);
  if (!valid.ok) throw Errors.invalidField("content", valid.key, valid.params);
  if (ctx.closed()) throw new AppError("INTERNAL_SERVER_ERROR", "chat.shuttingDown");
  const msg = await ownMessage(userId, messageId);
  if (msg.role !== "user") throw Errors.notFound("chat.messageNotFound");
  const tree = await loadHistoryTree(msg.sessionId, userId);
  refuseWhileAnswering(tree, tree.children(String(msg._id)));
  refuseTooManyBranches(tree, String(msg._id));
  const parent = tree.parent(String(msg._id));
  return startAnswer(ctx, userId, msg.sessionId, tree, { parent, content: valid.content });
}

/**
 * Regenerate an answer: a new answer to the same question beside it, shown from now on; the old one stays.
 * Another user's message, a question, or an unknown id: NOT_FOUND alike. CONFLICT chat.answerInProgress while
 * the answer is still being generated.
 */
export async function regenerateAnswer(
  ctx: BranchContext,
  userId: string,
  messageId: string,
): Promise<ChatMessageView> {
  if (ctx.closed()) throw new AppError("INTERNAL_SERVER_ERROR", "chat.shuttingDown");
  const msg = await ownMessage(userId, messageId);
  if (msg.role !== "assistant") throw Errors.notFound("chat.messageNotFound");
  const tree = await loadHistoryTree(msg.sessionId, userId);
  refuseWhileAnswering(tree, [String(msg._id)]);
  refuseTooManyBranches(tree, String(msg._id));
  const questionId = tree.parent(String(msg._id));
  // an answer always follows its question; anything else is not an answer this user can regenerate
  if (!questionId || tree.byId.get(questionId)?.role !== "user")
    throw Errors.notFound("chat.messageNotFound");
  // the question in full (its view goes back with the new answer); the tree holds only what history needs
  const question = await ownMessage(userId, questionId);
  const result = await startAnswer(ctx, userId, msg.sessionId, tree, { question });
  return result.assistantMessage;
}

/**
 * Show the branch through a message (the newest path below it); returns the shown thread's newest page
 * (chat.pages.ts: the places of all messages are read, the page's messages in full).
 */
export async function switchBranch(userId: string, messageId: string): Promise<ChatMessageView[]> {
  const msg = await ownMessage(userId, messageId);
  const tree = await loadPlaceTree(msg.sessionId, userId);
  const leaf = tree.newestLeafUnder(String(msg._id));
  await ChatSessionModel.updateOne(
    { sessionId: msg.sessionId, userId: userOid(userId) },
    { $set: { activeLeafId: objectId(leaf ?? "") } },
  );
  const { page } = slicePage(tree.shownBranch(leaf), null, MESSAGE_PAGE_DEFAULT);
  return presentPage(tree, page, userId);
}

/** the mutation answers once the new answer is under way, at most this long after (slow retrieval) */
export const BRANCH_RESPOND_MAX_MS = 250;

/**
 * Store a new branch and start its answer: either a new question (after `parent`) with its pending answer, or
 * a new pending answer to an existing `question`. Takes an answer slot like a send (TOO_MANY_REQUESTS when the
 * user has as many answers in flight as allowed; nothing is stored then) and the places of its messages in the
 * session (CHAT_SESSION_FULL, the slot given back and nothing stored).
 */
async function startAnswer(
  ctx: BranchContext,
  userId: string,
  sessionId: string,
  tree: MessageTree<HistoryDoc>,
  what: { parent: string | null; content: string } | { question: MessageDoc },
): Promise<BranchResult> {
  const { runner } = ctx;
  const release = await runner.reserve(userId);
  const starting = ctx.beginStarting();
  let started = false;
  try {
    const uid = userOid(userId);
    const now = new Date();
    const fresh =
      "question" in what
        ? null
        : new ChatMessageModel({
            userId: uid,
            sessionId,
            role: "user",
            content: what.content,
            timestamp: now,
            parentId: what.parent ? objectId(what.parent) : null,
          });
    const question = "question" in what ? what.question : (fresh?.toObject() as MessageDoc);
    const assistant = new ChatMessageModel({
      userId: uid,
      sessionId,
      role: "assistant",
      content: "",
      timestamp: new Date(now.getTime() + 1),
      parentId: question._id,
      replyTo: question._id,
      status: "pending",
      mode: runner.mode,
      worker: runner.workerId,
      heartbeatAt: now,
    });
    const questionParent = "question" in what ? tree.parent(String(question._id)) : what.parent;
    const history = await historyFor(tree, questionParent, ctx.limits.historyMessages, userId);
    const text = question.content ?? "";
    // the session's scope, as for a new question: retrieval sees only its articles, the answer keeps it. The
    // same write takes the new messages' places in the session (chat.message-count.ts): CHAT_SESSION_FULL when full
    const room = { add: fresh ? 2 : 1, max: ctx.limits.messagesPerSession };
    const scoped = await inRoom({ sessionId, userId: uid }, room, (filter) =>
      modelCollection(ChatSessionModel).findOneAndUpdate(
        filter,
        { $inc: takePlaces(room) },
        { projection: { scope: 1 }, returnDocument: "after" },
      ),
    );
    const scope = storedScope(scoped.scope);
    if (scope) assistant.set("scope", scope);
    const [language, filter] = await Promise.all([
      ctx.users.languageOf(userId),
      ctx.scopes.filterOf(userId, scope),
      ChatMessageModel.insertMany(fresh ? [fresh, assistant] : [assistant], { ordered: true }),
    ]);
    const session = await ChatSessionModel.findOneAndUpdate(
      { sessionId, userId: uid },
      // after the insert: the places read for this version hold the new messages (chat.place-cache.ts)
      {
        $set: { activeLeafId: assistant._id, lastUpdated: now, hasMessages: true },
        $inc: { placeVersion: 1 },
      },
      { returnDocument: "after" },
    ).lean();
    if (!session) throw Errors.notFound("chat.sessionNotFound");
    const assistantView = presentMessage(assistant.toObject());
    const answerStarted = runner.start(
      {
        message: assistantView,
        userId,
        question: text,
        questionParentId: questionParent,
        history,
        language,
        retrieve: prefetchRetrieval(text, history, scopedRetrieve(ctx.retrieve, filter)),
        scopeNote: scopeNote(scope, language === "en" ? "en" : "da"),
      },
      release,
    );
    started = true;
    void answerStarted.then(starting);
    await Promise.race([answerStarted, new Promise((r) => setTimeout(r, BRANCH_RESPOND_MAX_MS).unref())]);
    const added = fresh ? [question, assistant.toObject()] : [assistant.toObject()];
    const after = new MessageTree<TreeMessage>([...tree.byId.values(), ...(added as MessageDoc[])]);
    return {
      session: presentSession(session),
      userMessage: withBranch(after, presentMessage(question)),
      assistantMessage: withBranch(after, assistantView),
    };
  } catch (err) {
    if (!started) {
      release();
      starting();
    }
    throw err;
  }
}
