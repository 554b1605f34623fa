/**
 * Recent searches and the activity log's `search` entries, written behind the searches (write-behind batches):
 * through the running server, and one recorder on its own over the same store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "../activity/activity.service";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql } from "../testing/client";
import { searchAs } from "./knowledge.test-helpers";
import { MAX_PENDING_SEARCHES, RECENT_SEARCHES_KEPT, RecentSearchRecorder } from "./recent-searches.recorder";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const search = (query: unknown, opts: { offset?: number; as: string }) =>
  searchAs(app, opts.as, query, { offset: opts.offset });

describe("RecentSearchRecorder on its own", () => {
  async function newUser() {
    const { input } = await createVerifiedUser(app);
    return app.services.users.findByLogin(input.email);
  }

  it("should write what it was given, newest first, once per text, within the limit asked for", async () => {
    const recorder = new RecentSearchRecorder();
    const user = await newUser();
    const id = String(user._id);
    for (const query of ["alfa", "beta", "alfa", "gamma"])
      recorder.record(user, { query, category: null, results: 1 });
    const rows = await recorder.recentSearches(id); // writes the user's queued searches first
    expect(rows.map((r) => r.query)).toEqual(["gamma", "alfa", "beta"]);
    expect((await recorder.recentSearches(id, 0)).map((r) => r.query)).toEqual(["gamma"]); // at least 1
    expect(await recorder.recentSearches(id, 10_000)).toHaveLength(3); // at most RECENT_SEARCHES_KEPT
    const logged = await listActivity({ action: "search", search: user.email });
    expect(logged.map((e) => e.metadata.query)).toEqual(["gamma", "alfa", "beta", "alfa"]);
    expect(logged[0].metadata).toEqual({ query: "gamma", category: null, results: 1 });
    expect(await recorder.clearRecentSearches(id)).toBe(3);
    expect(await recorder.recentSearches(id)).toEqual([]);
  });

  it("should resolve searchesRecorded() only when every queued search is in the store", async () => {
    const recorder = new RecentSearchRecorder();
    const user = await newUser();
    for (let i = 0; i < 5; i++) recorder.record(user, { query: `q${i}`, category: "IT", results: i });
    await recorder.searchesRecorded();
    const logged = await listActivity({ action: "search", search: user.email });
    expect(logged).toHaveLength(5);
    expect(logged[0].metadata).toEqual({ query: "q4", category: "IT", results: 4 });
    await recorder.searchesRecorded(); // nothing queued: resolves at once
  });
});

describe("recent searches", () => {
  it("should keep the user's last 20 searches, newest first, log them as `search`, and show them to no one else", async () => {
    const me = await createVerifiedUser(app);
    const other = await createVerifiedUser(app);
    for (let i = 1; i <= RECENT_SEARCHES_KEPT + 5; i++) await search(`frist ${i}`, { as: me.token });
    await search("frist 3", { as: me.token }); // again: moves to the top, no duplicate
    await search("budget", { as: me.token, offset: 20 }); // paging is not a new search

    const mine = await gql(app, "{ myRecentSearches { id query timestamp } }", {}, me.token);
    const queries = mine.data.myRecentSearches.map((r: { query: string }) => r.query);
    expect(queries).toHaveLength(RECENT_SEARCHES_KEPT);
    expect(queries[0]).toBe("frist 3");
    expect(queries[1]).toBe(`frist ${RECENT_SEARCHES_KEPT + 5}`);
    expect(queries.filter((q: string) => q === "frist 3")).toHaveLength(1);
    expect(queries).not.toContain("frist 1");
    expect(queries).not.toContain("budget");

    const theirs = await gql(app, "{ myRecentSearches { query } }", {}, other.token);
    expect(theirs.data.myRecentSearches).toEqual([]);

    await app.services.knowledge.searchesRecorded(); // written after the answer
    const logged = await listActivity({ action: "search", search: me.input.email });
    expect(logged.length).toBeGreaterThanOrEqual(RECENT_SEARCHES_KEPT);
    expect(logged[0]).toMatchObject({ action: "search", userEmail: me.input.email.toLowerCase() });
    expect(logged[0].metadata).toMatchObject({ query: "frist 3" });

    const cleared = await gql(app, "mutation { clearMyRecentSearches }", {}, me.token);
    expect(cleared.data.clearMyRecentSearches).toBe(RECENT_SEARCHES_KEPT);
  });
  it("should record a burst of searches by several users, in order, each one logged with its own time", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    const userA = await app.services.users.findByLogin(a.input.email);
    const userB = await app.services.users.findByLogin(b.input.email);
    const knowledge = app.services.knowledge;
    // no waiting between them: they are written together, after the answers
    const texts = Array.from({ length: RECENT_SEARCHES_KEPT + 4 }, (_, i) => `udlæg ${i + 1}`);
    for (const q of texts) {
      await knowledge.search(userA, { query: q });
      await knowledge.search(userB, { query: `b ${q}` });
    }
    await new Promise((r) => setTimeout(r, 5)); // a later millisecond (equal times are ordered by id)
    await knowledge.search(userA, { query: "udlæg 2" }); // again: to the top, once
    await knowledge.search(userA, { query: "udlæg 2" });

    const mine = (await knowledge.recentSearches(String(userA._id))).map((r) => r.query);
    expect(mine).toHaveLength(RECENT_SEARCHES_KEPT);
    expect(mine[0]).toBe("udlæg 2");
    expect(mine.slice(1, 4)).toEqual([
      `udlæg ${texts.length}`,
      `udlæg ${texts.length - 1}`,
      `udlæg ${texts.length - 2}`,
    ]);
    expect(mine).not.toContain("udlæg 1");
    const theirs = (await knowledge.recentSearches(String(userB._id))).map((r) => r.query);
    expect(theirs[0]).toBe(`b udlæg ${texts.length}`);
    expect(theirs).toHaveLength(RECENT_SEARCHES_KEPT);

    await knowledge.searchesRecorded();
    const logged = await listActivity({ action: "search", search: a.input.email, limit: 100 });
    expect(logged).toHaveLength(texts.length + 2); // every search is logged, repeats too
    expect(logged.map((e) => e.metadata.query)).toEqual(["udlæg 2", "udlæg 2", ...[...texts].reverse()]);
    const times = logged.map((e) => e.timestamp.getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(logged[0].metadata).toMatchObject({ category: null, results: expect.any(Number) });
  });

  it("should record at most MAX_PENDING_SEARCHES unwritten searches of one user, and answer them all", async () => {
    const me = await createVerifiedUser(app);
    const user = await app.services.users.findByLogin(me.input.email);
    const extra = 15;
    for (let i = 0; i < MAX_PENDING_SEARCHES + extra; i++) {
      const res = await app.services.knowledge.search(user, { query: `hamret ${i}` });
      expect(res.query).toBe(`hamret ${i}`);
    }
    await app.services.knowledge.searchesRecorded();
    const logged = await listActivity({ action: "search", search: me.input.email, limit: 1000 });
    expect(logged).toHaveLength(MAX_PENDING_SEARCHES);
    // once written, the user is recorded again
    await app.services.knowledge.search(user, { query: "igen" });
    await app.services.knowledge.searchesRecorded();
    const again = await listActivity({ action: "search", search: me.input.email, limit: 1000 });
    expect(again).toHaveLength(MAX_PENDING_SEARCHES + 1);
    expect(again[0].metadata.query).toBe("igen");
  });

  it("should clear searches that were still waiting to be written", async () => {
    const me = await createVerifiedUser(app);
    await search("klagefrist", { as: me.token });
    await search("budget", { as: me.token });
    const cleared = await gql(app, "mutation { clearMyRecentSearches }", {}, me.token);
    expect(cleared.data.clearMyRecentSearches).toBe(2);
    await app.services.knowledge.searchesRecorded();
    const mine = await gql(app, "{ myRecentSearches { query } }", {}, me.token);
    expect(mine.data.myRecentSearches).toEqual([]);
  });
});
