/**
 * Paging a long session's shown branch (chat.pages.ts) over a private embedded store, with the driver's command
 * monitoring on: a 1,200-message session with an edit branch, read page by page from the newest end. The
 * monitor counts the message documents the store sent back with their text, which proves a page reads only its
 * own messages in full (the branch comes from their places alone).
 */
import { type EmbeddedStore, startEmbeddedStore } from "@vidensbank/embedded-mongo";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { switchBranch } from "./chat.branches";
import { HISTORY_RECENT_READ, historyFor, loadHistoryTree, loadRecentHistory } from "./chat.history";
import { ChatMessageModel, ChatSessionModel } from "./chat.model";
import { MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX } from "./chat.pages";
import { ChatSessions, EXPORT_MAX_MESSAGES } from "./chat.sessions";
import { codeOf } from "./chat.test-helpers";

let store: EmbeddedStore;
const alice = new mongoose.Types.ObjectId();
const bob = new mongoose.Types.ObjectId();
const A = alice.toHexString();
const B = bob.toHexString();
const sessions = new ChatSessions({ emailOf: async () => null, stopAnswersIn: async () => undefined });

/** messages of chat_messages the store sent back with their text (find and getMore replies) */
let withContent = 0;
/** messages of chat_messages the store sent back at all */
let fetched = 0;

const SESSION = "paged-session";
const MAIN = 1_200;
/** the question edited: a second question beside it, with its answer and one more exchange */
const EDITED_AT = 400;
const ANSWER_TEXT = "Svar med kilder. ".repeat(120);

type Doc = { _id: mongoose.Types.ObjectId; parentId: mongoose.Types.ObjectId | null; [k: string]: unknown };
const main: Doc[] = [];
const edit: Doc[] = [];

function message(i: number, parent: Doc | null, timestamp: number, owner = alice, session = SESSION): Doc {
  const role = i % 2 === 0 ? "user" : "assistant";
  return {
    _id: new mongoose.Types.ObjectId(),
    userId: owner,
    sessionId: session,
    role,
    content: role === "user" ? `Spørgsmål ${i}` : `${ANSWER_TEXT}${i}`,
    timestamp: new Date(timestamp),
    parentId: parent?._id ?? null,
    ...(role === "assistant"
      ? {
          status: "complete",
          replyTo: parent?._id,
          citations: [{ number: 1, articleId: "a1", title: "Kilde", passage: "x".repeat(500) }],
        }
      : {}),
  };
}

beforeAll(async () => {
  store = await startEmbeddedStore({ memory: true });
  await mongoose.connect(store.uri, { dbName: "vidensbank", monitorCommands: true });
  mongoose.connection.getClient().on("commandSucceeded", (event) => {
    const cursor = (
      event.reply as { cursor?: { ns?: string; firstBatch?: unknown[]; nextBatch?: unknown[] } }
    ).cursor;
    if (!cursor?.ns?.endsWith(".chat_messages")) return;
    for (const d of cursor.firstBatch ?? cursor.nextBatch ?? []) {
      fetched++;
      if ("content" in (d as object)) withContent++;
    }
  });
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < MAIN; i++) main.push(message(i, main[i - 1] ?? null, t0 + i * 1000));
  // the edit came later: beside question EDITED_AT, with its answer and one more exchange
  const later = t0 + MAIN * 1000;
  let parent = main[EDITED_AT - 1] ?? null;
  for (let i = 0; i < 4; i++) {
    const m = message(EDITED_AT + i, parent, later + i * 1000);
    edit.push(m);
    parent = m;
  }
  const bobs = [message(0, null, t0, bob, "bobs-session")];
  await ChatMessageModel.collection.insertMany([...main, ...edit, ...bobs]);
  await ChatSessionModel.collection.insertMany([
    session(alice, SESSION, main[MAIN - 1]?._id),
    session(bob, "bobs-session", bobs[0]?._id),
  ]);
});
afterAll(async () => {
  await mongoose.disconnect();
  await store?.close();
});

function session(owner: mongoose.Types.ObjectId, sessionId: string, leaf: unknown) {
  const now = new Date();
  return {
    userId: owner,
    sessionId,
    title: "Lang",
    titled: true,
    activeLeafId: leaf,
    createdAt: now,
    lastUpdated: now,
  };
}

const ids = (list: Array<{ id: string } | Doc>): string[] =>
  list.map((m) => ("id" in m ? String(m.id) : String(m._id)));

/** Every page from the newest back to the start, oldest message first overall. */
async function readAll(limit: number) {
  const pages: string[][] = [];
  let before: string | null = null;
  for (;;) {
    const page = await sessions.listMessages(A, SESSION, { before, limit });
    pages.unshift(ids(page));
    const first = page[0];
    if (!first?.parentId) return { pages, firstParent: first?.parentId ?? null };
    before = first.id;
  }
}

describe("a long session in pages", () => {
  it("should open at the newest page, reading only that page's messages in full", async () => {
    withContent = 0;
    fetched = 0;
    const page = await sessions.listMessages(A, SESSION);
    expect(ids(page)).toEqual(ids(main.slice(-MESSAGE_PAGE_DEFAULT)));
    // earlier messages exist: the first has a parent
    expect(page[0]?.parentId).toBe(String(main[MAIN - MESSAGE_PAGE_DEFAULT - 1]?._id));
    expect(page.at(-1)?.content).toBe(`${ANSWER_TEXT}${MAIN - 1}`);
    expect(page.at(-1)?.citations).toHaveLength(1);
    // all 1,204 places, but only the 50 shown with their text
    expect(fetched).toBe(MAIN + edit.length + MESSAGE_PAGE_DEFAULT);
    expect(withContent).toBe(MESSAGE_PAGE_DEFAULT);
  });

  it("should page back to the start with no gaps or repeats, the first message without a parent", async () => {
    const { pages, firstParent } = await readAll(MESSAGE_PAGE_MAX);
    expect(pages).toHaveLength(MAIN / MESSAGE_PAGE_MAX);
    expect(pages.flat()).toEqual(ids(main));
    expect(firstParent).toBeNull();
    // an uneven size: the oldest page is the short one
    const uneven = await readAll(70);
    expect(uneven.pages.flat()).toEqual(ids(main));
    expect(uneven.pages[0]).toHaveLength(MAIN % 70);
  });

  it("should clamp the limit to 1…MESSAGE_PAGE_MAX", async () => {
    expect(await sessions.listMessages(A, SESSION, { limit: 10_000 })).toHaveLength(MESSAGE_PAGE_MAX);
    expect(await sessions.listMessages(A, SESSION, { limit: 0 })).toHaveLength(1);
    expect(await sessions.listMessages(A, SESSION, { limit: -5 })).toHaveLength(1);
    expect(await sessions.listMessages(A, SESSION, { limit: 2.9 })).toHaveLength(2);
    expect(await sessions.listMessages(A, SESSION, { limit: null })).toHaveLength(MESSAGE_PAGE_DEFAULT);
  });

  it("should refuse another user's session, and a `before` not on the user's shown branch, as NOT_FOUND", async () => {
    expect(await codeOf(sessions.listMessages(B, SESSION))).toBe("NOT_FOUND");
    const bobsMessage = String((await ChatMessageModel.findOne({ userId: bob }).lean())?._id);
    const notShown = String(edit[0]?._id);
    for (const before of [bobsMessage, notShown, new mongoose.Types.ObjectId().toHexString(), "not-an-id"]) {
      expect(await codeOf(sessions.listMessages(A, SESSION, { before }))).toBe("NOT_FOUND");
    }
    // Bob cannot page through Alice's session with one of her ids either
    const hers = String(main[600]?._id);
    expect(await codeOf(sessions.listMessages(B, SESSION, { before: hers }))).toBe("NOT_FOUND");
  });

  it("should return the newest page of the branch switched to, and page it back to its start", async () => {
    withContent = 0;
    const shown = await switchBranch(A, String(edit[0]?._id));
    expect(withContent).toBe(MESSAGE_PAGE_DEFAULT + 1); // the page and the message switched to
    const branch = [...main.slice(0, EDITED_AT), ...edit];
    expect(ids(shown)).toEqual(ids(branch.slice(-MESSAGE_PAGE_DEFAULT)));
    expect(shown.find((m) => m.id === String(edit[0]?._id))).toMatchObject({
      siblingIndex: 2,
      siblingCount: 2,
    });
    expect(ids(await sessions.listMessages(A, SESSION))).toEqual(ids(shown));
    const { pages } = await readAll(MESSAGE_PAGE_MAX);
    expect(pages.flat()).toEqual(ids(branch));
    // and back: the original branch is shown again
    await switchBranch(A, String(main[EDITED_AT]?._id));
    expect(ids(await sessions.listMessages(A, SESSION))).toEqual(ids(main.slice(-MESSAGE_PAGE_DEFAULT)));
  });

  it("should keep an answer still being generated in its page (left out for REST)", async () => {
    const last = main[MAIN - 1] as Doc;
    await ChatMessageModel.collection.updateOne({ _id: last._id }, { $set: { status: "streaming" } });
    try {
      const page = await sessions.listMessages(A, SESSION, { limit: 3 });
      expect(page.map((m) => m.status)).toEqual(["complete", null, "streaming"]);
      const rest = await sessions.listMessages(A, SESSION, { limit: 3, includeInProgress: false });
      expect(rest.map((m) => m.status)).toEqual(["complete", null]);
    } finally {
      await ChatMessageModel.collection.updateOne({ _id: last._id }, { $set: { status: "complete" } });
    }
  });

  it("should export the newest EXPORT_MAX_MESSAGES messages and say how many older ones are left out", async () => {
    withContent = 0;
    const md = await sessions.exportSession(A, SESSION);
    expect(withContent).toBe(EXPORT_MAX_MESSAGES);
    expect(md).toContain(`_(De ${MAIN - EXPORT_MAX_MESSAGES} ældste beskeder er ikke med i eksporten.)_`);
    expect(md).toContain(`Spørgsmål ${MAIN - EXPORT_MAX_MESSAGES}\n`);
    expect(md).not.toContain(`Spørgsmål ${MAIN - EXPORT_MAX_MESSAGES - 2}\n`);
  });
});

describe("a long session's history for the model", () => {
  const HISTORY = 12;
  const contentOf = (d: Doc | undefined) => d?.content;
  const leaf = () => String(main[MAIN - 1]?._id);

  it("should read a send's history from the newest messages alone, in one read", async () => {
    withContent = 0;
    fetched = 0;
    const tree = await loadRecentHistory(SESSION, A);
    // the newest HISTORY_RECENT_READ + 1 (the one more says the session is longer), nothing else
    expect(tree.size).toBe(HISTORY_RECENT_READ);
    expect(fetched).toBe(HISTORY_RECENT_READ + 1);
    const turns = await historyFor(tree, leaf(), HISTORY, A);
    expect(turns.map((t) => t.content)).toEqual(main.slice(-HISTORY).map(contentOf));
    expect(fetched).toBe(HISTORY_RECENT_READ + 1);
    expect(withContent).toBe(HISTORY_RECENT_READ + 1);
  });

  it("should read on when the history leaves the newest messages, the older turns' text by id", async () => {
    const tree = await loadRecentHistory(SESSION, A);
    withContent = 0;
    fetched = 0;
    // the edit branch: its 4 messages are the newest, the 8 turns before them 800 messages older
    const turns = await historyFor(tree, String(edit[3]?._id), HISTORY, A);
    const branch = [...main.slice(0, EDITED_AT), ...edit];
    expect(turns.map((t) => t.content)).toEqual(branch.slice(-HISTORY).map(contentOf));
    // every message's state (the newest's text is the send's read, not read again), then the 8 older turns' text
    expect(fetched).toBe(MAIN + edit.length + (HISTORY - edit.length));
    expect(withContent).toBe(HISTORY - edit.length);
  });

  it("should give an edit the state of every message, the text of the newest only", async () => {
    withContent = 0;
    fetched = 0;
    const tree = await loadHistoryTree(SESSION, A);
    expect(tree.size).toBe(MAIN + edit.length);
    expect(withContent).toBe(HISTORY_RECENT_READ + 1);
    expect(fetched).toBe(HISTORY_RECENT_READ + 1 + MAIN + edit.length);
    expect(tree.byId.get(String(main[0]?._id))).toMatchObject({ role: "user", unread: true });
  });

  it("should follow a session stored before branches (no parentId: the message before in time) the same way", async () => {
    const t0 = Date.UTC(2025, 0, 1);
    const legacy = Array.from({ length: 100 }, (_, i) => {
      const { parentId: _none, ...m } = message(i, null, t0 + i * 1000, alice, "legacy-session");
      return m;
    });
    await ChatMessageModel.collection.insertMany(legacy);
    fetched = 0;
    const tree = await loadRecentHistory("legacy-session", A);
    const last = String(legacy[99]?._id);
    const turns = await historyFor(tree, last, HISTORY, A);
    expect(turns.map((t) => t.content)).toEqual(legacy.slice(-HISTORY).map((m) => m.content));
    expect(fetched).toBe(HISTORY_RECENT_READ + 1);
    // a history reaching the oldest of the newest reads on: its message before is not among them
    const deep = await historyFor(tree, last, HISTORY_RECENT_READ + 2, A);
    expect(deep.map((t) => t.content)).toEqual(
      legacy.slice(-(HISTORY_RECENT_READ + 2)).map((m) => m.content),
    );
    expect(fetched).toBeGreaterThan(HISTORY_RECENT_READ + 1 + legacy.length);
  });

  it("should read a short session whole in one read", async () => {
    withContent = 0;
    fetched = 0;
    for (const tree of [
      await loadRecentHistory("bobs-session", B),
      await loadHistoryTree("bobs-session", B),
    ]) {
      expect(tree.size).toBe(1);
      expect(tree.olderUnread).toBeUndefined();
    }
    expect(fetched).toBe(2);
    // another user's session reads as empty
    expect((await loadRecentHistory(SESSION, B)).size).toBe(0);
  });
});

describe("a long session's places kept in the process (chat.place-cache.ts)", () => {
  const KEPT = "kept-session";
  const kept: Doc[] = [];
  const t0 = Date.UTC(2026, 1, 1);
  const page = () => sessions.listMessages(A, KEPT, { limit: 4 });

  beforeAll(async () => {
    for (let i = 0; i < 200; i++) kept.push(message(i, kept[i - 1] ?? null, t0 + i * 1000, alice, KEPT));
    await ChatMessageModel.collection.insertMany(kept);
    await ChatSessionModel.collection.insertOne(session(alice, KEPT, kept[199]?._id));
  });

  it("should open a page again without reading every message's place", async () => {
    await page();
    fetched = 0;
    withContent = 0;
    expect(ids(await page())).toEqual(ids(kept.slice(-4)));
    // the page's 4 messages and nothing else
    expect(fetched).toBe(4);
    expect(withContent).toBe(4);
  });

  it("should read the places again once another process counted messages it added to the session", async () => {
    // another process regenerates the newest answer (a sibling of it) and counts it after the insert; the shown
    // leaf stays the old answer here, so only placeVersion tells the kept tree is old
    const regenerated = message(199, kept[198] ?? null, t0 + 500_000, alice, KEPT);
    await ChatMessageModel.collection.insertOne(regenerated);
    expect((await page()).at(-1)?.siblingCount).toBe(1); // not counted yet: the tree read before it
    await ChatSessionModel.collection.updateOne({ sessionId: KEPT }, { $inc: { placeVersion: 1 } });
    fetched = 0;
    const shown = await page();
    expect(shown.at(-1)).toMatchObject({ id: String(kept[199]?._id), siblingCount: 2 });
    expect(shown.at(-1)?.siblingIds).toEqual([String(kept[199]?._id), String(regenerated._id)]);
    expect(fetched).toBe(kept.length + 1 + 4);
  });

  it("should read the places again when the shown leaf is not in the kept tree (a send's count lost)", async () => {
    const question = message(200, kept[199] ?? null, t0 + 600_000, alice, KEPT);
    const answer = message(201, question, t0 + 600_001, alice, KEPT);
    await ChatMessageModel.collection.insertMany([question, answer]);
    await ChatSessionModel.collection.updateOne({ sessionId: KEPT }, { $set: { activeLeafId: answer._id } });
    expect(ids(await page()).slice(-2)).toEqual(ids([question, answer]));
  });
});
