/**
 * The start-up migration over the wire: data written by an older version (user ids as strings) in an embedded
 * store, then the app started on it. The user sees their sessions, bookmarks and preferences; the admin list
 * counts them; deleting the user removes all of it; running the migration again changes nothing.
 */
import { startEmbeddedStore } from "@vidensbank/embedded-mongo";
import { MongoClient, ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, loginAdmin, rest } from "../testing/client";
import { USER_REFERENCES, userIdsToObjectId } from "./migrations";

let store: Awaited<ReturnType<typeof startEmbeddedStore>>;
let client: MongoClient;
let app: TestApp;
let userId: string;
let login: { email: string; password: string };

const stringIdCount = async () => {
  let n = 0;
  for (const { collection } of USER_REFERENCES) {
    n += await client
      .db()
      .collection(collection)
      .countDocuments({ userId: { $type: "string" } });
  }
  return n;
};

beforeAll(async () => {
  store = await startEmbeddedStore({ memory: true });
  client = await MongoClient.connect(store.uri);
  // the first start: an account, made the ordinary way
  const first = await startTestApp({ config: { mongodbUri: store.uri } });
  const made = await createVerifiedUser(first);
  userId = made.user.id;
  login = { email: made.input.email, password: made.input.password };
  const articleId = (await client.db().collection("knowledge_articles").findOne({}))?._id as ObjectId;
  await first.close();

  // what an older version left behind: the user's id as a string
  const db = client.db();
  const now = new Date();
  await db.collection("chat_sessions").insertOne({
    userId,
    sessionId: "old-session-1",
    title: "Gammel samtale",
    titled: true,
    createdAt: now,
    lastUpdated: now,
  });
  await db.collection("chat_messages").insertOne({
    userId,
    sessionId: "old-session-1",
    role: "user",
    content: "Hvad er klagefristen?",
    status: "complete",
    timestamp: now,
  });
  await db
    .collection("knowledge_gaps")
    .insertOne({ userId, sessionId: "old-session-1", question: "?", timestamp: now });
  await db
    .collection("user_bookmarks")
    .insertOne({ userId, articleId, articleTitle: "Gemt", createdAt: now });
  await db.collection("recent_searches").insertOne({ userId, query: "moms", timestamp: now });
  await db.collection("user_preferences").insertOne({
    userId,
    language: "en",
    theme: "dark",
    notifications: false,
    createdAt: now,
    updatedAt: now,
  });
  await db.collection("activity_logs").insertOne({
    userId,
    action: "login",
    description: "Bruger loggede ind",
    userEmail: login.email,
    timestamp: now,
    metadata: {},
  });
  expect(await stringIdCount()).toBe(7);

  // the new version starts on that data
  app = await startTestApp({ config: { mongodbUri: store.uri } });
});

afterAll(async () => {
  await app?.close();
  await client?.close();
  await store?.close();
});

describe("start-up migration: user ids become ObjectIds", () => {
  it("should convert every string user id on start", async () => {
    expect(await stringIdCount()).toBe(0);
    const session = await client.db().collection("chat_sessions").findOne({ sessionId: "old-session-1" });
    expect(session?.userId).toBeInstanceOf(ObjectId);
    expect(String(session?.userId)).toBe(userId);
  });

  it("should show the user their old data, and the admin count it", async () => {
    const token = (await rest(app, "POST", "/api/auth/login", { body: login })).body.token;
    const sessions = await rest(app, "GET", "/api/chat/sessions", { token });
    expect(sessions.body.map((s: { title: string }) => s.title)).toContain("Gammel samtale");
    const bookmarks = await rest(app, "GET", "/api/user/bookmarks", { token });
    expect(bookmarks.body).toHaveLength(1);
    const prefs = await rest(app, "GET", "/api/user/preferences", { token });
    expect(prefs.body).toMatchObject({ language: "en", theme: "dark", notifications: false });

    const admin = await loginAdmin(app);
    const users = await rest(app, "GET", "/api/admin/users", { token: admin });
    const row = users.body.find((u: { id: string }) => u.id === userId);
    expect(row).toMatchObject({ chatSessionsCount: 1, bookmarksCount: 1 });
  });

  it("should change nothing when run again", async () => {
    const before = await client.db().collection("chat_sessions").find({}).toArray();
    expect(await userIdsToObjectId(client.db())).toEqual({ converted: {}, droppedDuplicates: {} });
    expect(await client.db().collection("chat_sessions").find({}).toArray()).toEqual(before);
  });

  it("should keep the newer document when an old one duplicates it", async () => {
    const db = client.db();
    const oid = new ObjectId(userId);
    await db.collection("recent_searches").insertOne({ userId, query: "moms", timestamp: new Date(0) });
    const report = await userIdsToObjectId(db);
    expect(report).toEqual({ converted: {}, droppedDuplicates: { recent_searches: 1 } });
    expect(await db.collection("recent_searches").countDocuments({ userId: oid, query: "moms" })).toBe(1);
  });

  it("should remove all of the user's data in every feature when the admin deletes the user", async () => {
    const admin = await loginAdmin(app);
    const res = await rest(app, "DELETE", `/api/admin/users/${userId}`, { token: admin });
    expect(res.status).toBe(200);
    const oid = new ObjectId(userId);
    for (const { collection } of USER_REFERENCES) {
      if (collection === "activity_logs") continue; // the log keeps what happened
      expect({
        collection,
        n: await client.db().collection(collection).countDocuments({ userId: oid }),
      }).toEqual({
        collection,
        n: 0,
      });
    }
    expect(await client.db().collection("users").countDocuments({ _id: oid })).toBe(0);
  });
});
