/**
 * What a send, an edit and a regenerate read of a session on their way to the model: the messages' places in the
 * tree, roles and states, and the text of the turns sent as history (never citations or follow-ups).
 *
 * A session used every day grows to thousands of messages, and the history sent is its last
 * `limits.historyMessages` (12) turns. A send reads the newest HISTORY_RECENT_READ messages only
 * (loadRecentHistory): a session that short is read whole, as before, and in a longer one the history is almost
 * always among them. Only when the path the history follows leaves them (an old branch shown again) is every
 * message's state read (statesWithText) and the text of the turns outside the newest read by id (historyFor).
 */
import type mongoose from "mongoose";
import type { HistoryTurn } from "./answer";
import { ChatMessageModel } from "./chat.model";
import { loadProjectedTree } from "./chat.pages";
import { userOid } from "./chat.rules";
import { modelCollection } from "./chat.store";
import { MessageTree, type TreeMessage } from "./chat.tree";

/** `unread`: read without its text (a long session's older message); historyFor reads it when it is history. */
export type HistoryDoc = TreeMessage & {
  role: string;
  status?: string | null;
  content?: string | null;
  unread?: true;
};

/**
 * A tree of a session's messages for history. `olderUnread`: the tree holds only the session's newest messages
 * (loadRecentHistory); the session and owner to read the rest from when the history needs them.
 */
export type HistoryTree = MessageTree<HistoryDoc> & {
  olderUnread?: { sessionId: string; userId: string; oldestId: string };
  /** the read failed: the tree is empty, the session's size unknown (not a message's `unread`) */
  readFailed?: true;
};

/** What a new question needs of the messages before it: their places in the tree and the turns' text. */
export const HISTORY_FIELDS = { _id: 1, parentId: 1, timestamp: 1, role: 1, status: 1, content: 1 } as const;
/** The tree without the text: places, roles and states (edit and regenerate check alternatives and states). */
const STATE_FIELDS = { _id: 1, parentId: 1, timestamp: 1, role: 1, status: 1 } as const;
/**
 * A send's first read holds at most this many of the session's newest messages with their text: 5 times the
 * default history, so that regenerated answers and edits among the newest still leave the history inside.
 */
export const HISTORY_RECENT_READ = 64;

type Oid = mongoose.Types.ObjectId;

/** The session's newest `count` messages with HISTORY_FIELDS, newest first (the owner's only). */
function readNewest(sessionId: string, userId: string, count: number): Promise<HistoryDoc[]> {
  // through the driver: mongoose's casting is CPU every send waits for
  return modelCollection(ChatMessageModel)
    .find({ sessionId, userId: userOid(userId) }, { projection: HISTORY_FIELDS })
    .sort({ timestamp: -1 })
    .limit(count)
    .toArray() as unknown as Promise<HistoryDoc[]>;
}

/**
 * A send's read (one round trip): the session's newest HISTORY_RECENT_READ messages with their text; the whole
 * session when it is no longer. A longer session's tree is marked `olderUnread`: historyFor reads on when the
 * history leaves it.
 */
export async function loadRecentHistory(sessionId: string, userId: string): Promise<HistoryTree> {
  if (typeof sessionId !== "string") return new MessageTree<HistoryDoc>([]);
  const newest = await readNewest(sessionId, userId, HISTORY_RECENT_READ + 1);
  if (newest.length <= HISTORY_RECENT_READ) return new MessageTree(newest);
  const kept = newest.slice(0, HISTORY_RECENT_READ);
  const tree: HistoryTree = new MessageTree(kept);
  tree.olderUnread = { sessionId, userId, oldestId: String(kept.at(-1)?._id) };
  return tree;
}

/**
 * Every message of the session with its place, role and state, and the text of the newest HISTORY_RECENT_READ
 * (the others `unread`): what an edit and a regenerate check (alternatives at a point, answers in progress), and
 * what a send falls back to. One read for a session no longer than HISTORY_RECENT_READ.
 */
export async function loadHistoryTree(sessionId: string, userId: string): Promise<HistoryTree> {
  if (typeof sessionId !== "string") return new MessageTree<HistoryDoc>([]);
  const newest = await readNewest(sessionId, userId, HISTORY_RECENT_READ + 1);
  if (newest.length <= HISTORY_RECENT_READ) return new MessageTree(newest);
  return statesWithText(sessionId, userId, newest);
}

/** Every message's state (the others `unread`), with the text of `newest` (messages already read with it). */
async function statesWithText(
  sessionId: string,
  userId: string,
  newest: Iterable<HistoryDoc>,
): Promise<HistoryTree> {
  const textOf = new Map<string, string | null | undefined>();
  for (const d of newest) textOf.set(String(d._id), d.content);
  // the states of all (chat.pages.ts: the read the pages use, served by the session's index), the text merged in
  const tree = await loadProjectedTree<HistoryDoc>(sessionId, userId, STATE_FIELDS);
  for (const [id, d] of tree.byId) {
    if (textOf.has(id)) d.content = textOf.get(id);
    else d.unread = true;
  }
  return tree;
}

/**
 * True when the last `limit` messages of the path to `lastId` are those of the whole session, read from a tree of
 * only its newest messages: each step up follows a stored parent that is among them, or the message before in
 * time (a message stored before branches) from any but the oldest of them, or ends at a first question.
 */
function pathInside(tree: HistoryTree, lastId: string | null, limit: number, oldestId: string): boolean {
  let at = lastId;
  for (let n = 0; at !== null && n < limit; n++) {
    const d = tree.byId.get(at);
    if (!d) return false;
    if (d.parentId === null) return true;
    const inferred = d.parentId === undefined || !tree.has(String(d.parentId));
    if (inferred && (d.parentId !== undefined || at === oldestId)) return false;
    at = tree.parent(at);
  }
  return true;
}

/**
 * The turns of the branch down to `lastId` (branchHistory): from a send's tree of the newest messages when the
 * history lies inside it, else from the whole session's states; the text of turns read without it is read by id
 * (one read, the owner's only).
 */
export async function historyFor(
  tree: HistoryTree,
  lastId: string | null,
  limit: number,
  userId: string,
): Promise<HistoryTurn[]> {
  let source: HistoryTree = tree;
  const older = tree.olderUnread;
  if (older && !pathInside(tree, lastId, limit, older.oldestId)) {
    // the send's read already holds the newest messages' text: only the states of all are read
    source = await statesWithText(older.sessionId, older.userId, tree.byId.values());
  }
  const unread = historyPath(source, lastId, limit).filter((d) => d.unread);
  if (unread.length > 0) {
    const docs = await modelCollection(ChatMessageModel)
      .find(
        { _id: { $in: unread.map((d) => d._id as Oid) }, userId: userOid(userId) },
        { projection: { content: 1 } },
      )
      .toArray();
    const textOf = new Map(docs.map((d) => [String(d._id), d.content as string | null | undefined]));
    for (const d of unread) {
      d.content = textOf.get(String(d._id));
      delete d.unread;
    }
  }
  return branchHistory(source, lastId, limit);
}

/** The messages of the branch down to `lastId` (inclusive) that history may hold: its last `limit`. */
function historyPath<T extends HistoryDoc>(tree: MessageTree<T>, lastId: string | null, limit: number): T[] {
  // a parent not read yet (a question sent at the same moment): the newest branch stands in
  const path = lastId === null ? [] : tree.has(lastId) ? tree.pathTo(lastId) : tree.shownBranch(null);
  return path.slice(-limit);
}

/** The turns of the branch down to `lastId` (inclusive): complete answers and kept partial ones, oldest first. */
export function branchHistory<T extends HistoryDoc>(
  tree: MessageTree<T>,
  lastId: string | null,
  limit: number,
): HistoryTurn[] {
  return historyPath(tree, lastId, limit)
    .filter((d) => d.role === "user" || d.status === "complete" || (d.status === "stopped" && d.content))
    .map((d) => ({ role: d.role as HistoryTurn["role"], content: d.content ?? "" }));
}
