/**
 * A session's shown branch in pages from the newest end (the chat opens at its newest messages; scrolling up asks
 * for the page before the oldest one it shows). A session used daily grows to thousands of messages: the branch is
 * computed from a light read of every message's place (PLACE_FIELDS: id, parent, time; no text, no citations) and
 * only the page's messages are read in full.
 *
 * Whether earlier messages exist needs no extra field: the first message of a shown branch is its root, the only
 * message whose parentId (the tree's, see withBranch) is null. A page whose first message has a parentId has
 * earlier messages; ask for them with `before` = that message's id.
 */
import { Errors } from "../errors";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { ownSession } from "./chat.ownership";
import { placeTrees } from "./chat.place-cache";
import { type ChatMessageView, presentMessage } from "./chat.presenter";
import { userOid } from "./chat.rules";
import { modelCollection } from "./chat.store";
import { MessageTree, type TreeMessage } from "./chat.tree";

/** messages in a page when no limit is asked (the web's page: a screenful many times over) */
export const MESSAGE_PAGE_DEFAULT = 50;
/** at most this many messages in one page (a larger limit is clamped to it; 0 or less to 1) */
export const MESSAGE_PAGE_MAX = 100;

/** What the branch is computed from: a message's place in the tree, never its text or sources. */
export const PLACE_FIELDS = { _id: 1, parentId: 1, timestamp: 1 } as const;

/** A page: the messages (oldest first) and how many messages of the shown branch come before them. */
export interface MessagePage {
  messages: ChatMessageView[];
  earlier: number;
}

/** The page size for an asked limit: MESSAGE_PAGE_DEFAULT when absent, else a whole number in 1…max. */
export function pageLimit(limit: number | null | undefined, max = MESSAGE_PAGE_MAX): number {
  if (typeof limit !== "number" || !Number.isFinite(limit)) return Math.min(MESSAGE_PAGE_DEFAULT, max);
  return Math.min(Math.max(Math.trunc(limit), 1), max);
}

/**
 * The session's messages as a tree, each with only the `projection`'s fields (the owner's only; another user's
 * session: an empty tree). Through the driver (mongoose's casting is CPU every read waits for): the session id is
 * checked here, as mongoose's cast did.
 */
export async function loadProjectedTree<T extends TreeMessage>(
  sessionId: string,
  userId: string,
  projection: Record<string, 1>,
): Promise<MessageTree<T>> {
  if (typeof sessionId !== "string") return new MessageTree<T>([]);
  // sorted by time (the tree's order anyway) so that the {sessionId, timestamp} index serves the read, walked in
  // order: unsorted, the embedded store's planner may pick userId_1 (a tie) and scan every session of the user
  const docs = await modelCollection(ChatMessageModel)
    .find({ sessionId, userId: userOid(userId) }, { projection })
    .sort({ timestamp: 1 })
    .toArray();
  return new MessageTree(docs as unknown as T[]);
}

/** The session's messages as a tree of places only (PLACE_FIELDS). */
export function loadPlaceTree(sessionId: string, userId: string): Promise<MessageTree<TreeMessage>> {
  return loadProjectedTree(sessionId, userId, PLACE_FIELDS);
}

/**
 * The `limit` messages of `branch` before the message `before` (the newest ones without it). A `before` not on
 * the branch (unknown, another user's, or on a branch not shown) is NOT_FOUND, like every message id.
 */
export function slicePage<T extends TreeMessage>(
  branch: T[],
  before: string | null | undefined,
  limit: number,
): { page: T[]; earlier: number } {
  const end = before ? branch.findIndex((d) => String(d._id) === before) : branch.length;
  if (end === -1) throw Errors.notFound("chat.messageNotFound");
  const start = Math.max(0, end - limit);
  return { page: branch.slice(start, end), earlier: start };
}

/** A view with its place among the alternatives (the tree's parent, siblings and position). */
export function withBranch<T extends TreeMessage>(
  tree: MessageTree<T>,
  view: ChatMessageView,
): ChatMessageView {
  return tree.has(view.id) ? { ...view, ...tree.branchInfo(view.id) } : view;
}

/**
 * The page's messages read in full (one query for just their ids), oldest first, each with its place among the
 * alternatives. A message deleted between the two reads is left out.
 */
export async function presentPage<T extends TreeMessage>(
  tree: MessageTree<T>,
  page: TreeMessage[],
  userId: string,
): Promise<ChatMessageView[]> {
  if (page.length === 0) return [];
  const docs = await ChatMessageModel.find({
    _id: { $in: page.map((d) => d._id) },
    userId: userOid(userId),
  }).lean();
  const byId = new Map(docs.map((d) => [String(d._id), d]));
  return page.flatMap((d) => {
    const doc = byId.get(String(d._id));
    return doc ? [withBranch(tree, presentMessage(doc))] : [];
  });
}

/**
 * A page of the user's session's shown branch: the `limit` messages before `before` (the newest without it).
 * NOT_FOUND for another user's or an unknown session, and for a `before` not on the shown branch.
 */
export async function shownPage(
  userId: string,
  sessionId: string,
  { before, limit }: { before?: string | null; limit: number },
): Promise<MessagePage> {
  // the session first: a kept tree is used while its placeVersion is unchanged, a tree read after it is at least
  // as new as that version (chat.place-cache.ts)
  const session = await ownSession(userId, sessionId);
  const tree = await placeTrees.tree(userId, sessionId, session, () => loadPlaceTree(sessionId, userId));
  const branch = tree.shownBranch(session.activeLeafId ? String(session.activeLeafId) : null);
  const { page, earlier } = slicePage(branch, before, limit);
  return { messages: await presentPage(tree, page, userId), earlier };
}

/**
 * Counts messages just added to a session (after their insert was acknowledged): the place trees other processes
 * keep of it are read again (chat.place-cache.ts). A failure is logged by the caller: the send's own new leaf still
 * makes a kept tree be read again.
 */
export async function countAddedPlaces(sessionId: string, userId: string): Promise<void> {
  await ChatSessionModel.updateOne({ sessionId, userId: userOid(userId) }, { $inc: { placeVersion: 1 } });
}
