import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newKeyTree } from "./btree";
import { createEngine, type Engine } from "./index";
import { countKeys, KeyCounter, PLAN_COUNT_STEP, PLAN_KEY_COUNT_CAP } from "./planner";

let engine: Engine;

beforeEach(async () => {
  engine = await createEngine({});
});
afterEach(async () => {
  await engine.close();
});

const T0 = Date.UTC(2026, 0, 1);

/**
 * Chat messages like the app's: user u0 has 5,000 messages in 20 sessions of 250, users u1–u4 one session of
 * 250 each (6,000 in all); roles alternate.
 */
async function fillMessages() {
  const docs = [];
  let i = 0;
  for (let u = 0; u < 5; u++) {
    const sessions = u === 0 ? 20 : 1;
    for (let s = 0; s < sessions; s++)
      for (let m = 0; m < 250; m++, i++)
        docs.push({
          userId: `u${u}`,
          sessionId: `u${u}-s${s}`,
          role: m % 2 === 0 ? "user" : "assistant",
          timestamp: new Date(T0 + i * 1000),
          n: i,
        });
  }
  await engine.insert("db", "m", docs, true);
}

type Key = Record<string, 1 | -1>;

async function indexes(...specs: [string, Key, Record<string, unknown>?][]) {
  await engine.createIndexes(
    "db",
    "m",
    specs.map(([name, key, extra]) => ({ name, key, ...extra })),
  );
}

describe("planner: choosing between indexes by the keys they would read", () => {
  for (const order of ["non-selective first", "selective first"] as const) {
    it(`should take the selective one of two single-field indexes that tie (${order})`, async () => {
      await fillMessages();
      const userId: [string, Key] = ["userId_1", { userId: 1 }];
      const sessionId: [string, Key] = ["sessionId_1", { sessionId: 1 }];
      await indexes(...(order === "non-selective first" ? [userId, sessionId] : [sessionId, userId]));
      const r = engine.find("db", "m", { filter: { sessionId: "u0-s3", userId: "u0" } });
      expect(r.length).toBe(250);
      expect(r.every((d) => d.sessionId === "u0-s3")).toBe(true);
      expect(engine.lastPlan).toMatchObject({
        stage: "IXSCAN",
        index: "sessionId_1",
        keysExamined: 250,
        docsExamined: 250,
        nReturned: 250,
      });
      // the other way round the other field is the selective one
      const r2 = engine.find("db", "m", { filter: { userId: "u2", sessionId: { $in: ["u2-s0", "u0-s1"] } } });
      expect(r2.length).toBe(250);
      expect(engine.lastPlan).toMatchObject({ index: "userId_1", keysExamined: 250 });
    });
  }

  it("should serve a session's messages of a user from the session's compound index (stop 29's tie)", async () => {
    await fillMessages();
    await indexes(["userId_1", { userId: 1 }], ["sessionId_1_timestamp_1", { sessionId: 1, timestamp: 1 }]);
    const filter = { sessionId: "u0-s7", userId: "u0" };
    const all = engine.find("db", "m", { filter });
    expect(all.map((d) => d.n)).toEqual(Array.from({ length: 250 }, (_, k) => 7 * 250 + k));
    expect(engine.lastPlan).toMatchObject({ index: "sessionId_1_timestamp_1", keysExamined: 250 });
    // both counted in turns, stopped one turn after the session's 250 ran out: not the user's 5,000
    expect(engine.lastPlan?.planKeysCounted).toBe(250 + 250 + PLAN_COUNT_STEP);
    const newest = engine.find("db", "m", { filter, sort: { timestamp: -1 }, limit: 3 });
    expect(newest.map((d) => d.n)).toEqual([1999, 1998, 1997]);
    expect(engine.lastPlan).toMatchObject({
      index: "sessionId_1_timestamp_1",
      sortedByIndex: true,
      keysExamined: 3,
      docsExamined: 3,
    });
  });

  it("should not walk a sorting index that reads more keys than a tied index plus an in-memory sort", async () => {
    await fillMessages();
    await indexes(["userId_1_timestamp_1", { userId: 1, timestamp: 1 }], ["sessionId_1", { sessionId: 1 }]);
    // the session is the user's oldest: walking the user's messages newest first passes 4,750 others first
    const r = engine.find("db", "m", {
      filter: { userId: "u0", sessionId: "u0-s0" },
      sort: { timestamp: -1 },
      limit: 2,
    });
    expect(r.map((d) => d.n)).toEqual([249, 248]);
    expect(engine.lastPlan).toMatchObject({ index: "sessionId_1", keysExamined: 250 });
    expect(engine.lastPlan?.sortedByIndex).toBeFalsy();
    // equal counts still prefer the index that gives the order
    await indexes(["sessionId_1_timestamp_1", { sessionId: 1, timestamp: 1 }]);
    const r2 = engine.find("db", "m", {
      filter: { userId: "u0", sessionId: "u0-s0" },
      sort: { timestamp: -1 },
      limit: 2,
    });
    expect(r2.map((d) => d.n)).toEqual([249, 248]);
    expect(engine.lastPlan).toMatchObject({
      index: "sessionId_1_timestamp_1",
      sortedByIndex: true,
      keysExamined: 2,
    });
  });

  it("should count nothing when every candidate applies the same predicates (as many keys each)", async () => {
    await fillMessages();
    await indexes(
      ["sessionId_1", { sessionId: 1 }],
      ["sessionId_1_timestamp_1", { sessionId: 1, timestamp: 1 }],
    );
    const r = engine.find("db", "m", { filter: { sessionId: "u0-s3" }, limit: 20 });
    expect(r.length).toBe(20);
    expect(engine.lastPlan).toMatchObject({ index: "sessionId_1", keysExamined: 20 });
    expect(engine.lastPlan?.planKeysCounted).toBeUndefined();
    engine.find("db", "m", { filter: { sessionId: "u0-s3" }, sort: { timestamp: -1 }, limit: 20 });
    expect(engine.lastPlan).toMatchObject({
      index: "sessionId_1_timestamp_1",
      sortedByIndex: true,
      keysExamined: 20,
    });
    expect(engine.lastPlan?.planKeysCounted).toBeUndefined();
    // with a third index on other fields the two are counted once
    await indexes(["userId_1", { userId: 1 }]);
    engine.find("db", "m", {
      filter: { sessionId: "u0-s3", userId: "u0" },
      sort: { timestamp: -1 },
      limit: 20,
    });
    expect(engine.lastPlan).toMatchObject({
      index: "sessionId_1_timestamp_1",
      sortedByIndex: true,
      keysExamined: 20,
    });
    expect(engine.lastPlan?.planKeysCounted).toBe(250 + 250 + PLAN_COUNT_STEP);
    // indexes with arrays hold more keys than documents: each is counted on its own
    await engine.update("db", "m", [{ q: { n: 0 }, u: { $set: { sessionId: ["u0-s0", "x"] } } }], true);
    engine.find("db", "m", { filter: { sessionId: "u0-s3" }, limit: 20 });
    expect(engine.lastPlan).toMatchObject({ index: "sessionId_1", planKeysCounted: 250 + 250 });
  });

  it("should prefer a range that reads fewer keys over an equality that reads many", async () => {
    await fillMessages();
    await indexes(["userId_1", { userId: 1 }], ["timestamp_1", { timestamp: 1 }]);
    const r = engine.find("db", "m", {
      filter: {
        userId: "u0",
        timestamp: { $gte: new Date(T0 + 4990 * 1000), $lt: new Date(T0 + 5010 * 1000) },
      },
    });
    expect(r.map((d) => d.n)).toEqual([4990, 4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999]);
    expect(engine.lastPlan).toMatchObject({ index: "timestamp_1", keysExamined: 20 });
    // a range over most of the collection loses to the equality
    engine.find("db", "m", { filter: { userId: "u3", timestamp: { $gte: new Date(T0) } } });
    expect(engine.lastPlan).toMatchObject({ index: "userId_1", keysExamined: 250 });
  });

  it("should keep the older rule (score, then the older index) when both exceed the count cap", async () => {
    await fillMessages();
    await indexes(["role_1", { role: 1 }], ["userId_1", { userId: 1 }]);
    // u0 has 5,000 messages, role "user" 3,000: both counts stop at the cap, the first index created wins
    engine.find("db", "m", { filter: { userId: "u0", role: "user" } });
    expect(engine.lastPlan).toMatchObject({ index: "role_1", keysExamined: 3000, nReturned: 2500 });
    expect(engine.lastPlan?.planKeysCounted).toBe(2 * PLAN_KEY_COUNT_CAP);
    // a compound index fixing both fields scores higher and is counted first
    await indexes(["userId_1_role_1", { userId: 1, role: 1 }]);
    engine.find("db", "m", { filter: { userId: "u0", role: "user" } });
    expect(engine.lastPlan).toMatchObject({ index: "userId_1_role_1", keysExamined: 2500 });
  });

  it("should take a unique index with every field fixed without counting (at most one key)", async () => {
    await fillMessages();
    await indexes(["userId_1", { userId: 1 }], ["n_1", { n: 1 }, { unique: true }]);
    const r = engine.find("db", "m", { filter: { userId: "u0", n: 42 } });
    expect(r.map((d) => d.n)).toEqual([42]);
    expect(engine.lastPlan).toMatchObject({ index: "n_1", keysExamined: 1 });
    expect(engine.lastPlan?.planKeysCounted).toBeUndefined();
  });

  it("should still count when a unique compound index is fixed on its first field only", async () => {
    await fillMessages();
    await indexes(["userId_1", { userId: 1 }], ["sn", { sessionId: 1, n: 1 }, { unique: true }]);
    const r = engine.find("db", "m", { filter: { userId: "u1", sessionId: "u0-s3" } });
    expect(r).toEqual([]);
    // sessionId u0-s3 holds 250 keys, userId u1 250: both counted to their end, the unique one's score decides
    expect(engine.lastPlan).toMatchObject({ index: "sn", planKeysCounted: 500 });
  });

  it("should leave sparse, partial and multikey indexes' answers unchanged", async () => {
    await fillMessages();
    // every 100th message is rated (sparse); assistant messages have a partial index; tags are arrays
    await engine.update(
      "db",
      "m",
      [
        { q: { n: { $mod: [100, 1] } }, u: { $set: { rating: "up" } }, multi: true },
        {
          q: {},
          u: [{ $set: { tags: ["all", { $concat: ["t", { $toString: { $mod: ["$n", 50] } }] }] } }],
          multi: true,
        },
      ],
      true,
    );
    await indexes(
      ["userId_1", { userId: 1 }],
      ["rating_1", { rating: 1 }, { sparse: true }],
      ["role_1_partial", { role: 1 }, { partialFilterExpression: { role: "assistant" } }],
      ["tags_1", { tags: 1 }],
    );
    // sparse: a value narrows (60 rated messages), null cannot use it
    const rated = engine.find("db", "m", { filter: { userId: "u0", rating: "up" } });
    expect(rated.length).toBe(50);
    expect(engine.lastPlan).toMatchObject({ index: "rating_1", keysExamined: 60 });
    const unrated = engine.find("db", "m", { filter: { userId: "u1", rating: null } });
    expect(unrated.length).toBe(250 - 3);
    expect(engine.lastPlan?.index).toBe("userId_1");
    // partial: never a candidate, the answer is whole
    const assistant = engine.find("db", "m", { filter: { userId: "u2", role: "assistant" } });
    expect(assistant.length).toBe(125);
    expect(engine.lastPlan?.index).toBe("userId_1");
    // multikey: keys of the selective tag, each document once
    const tagged = engine.find("db", "m", { filter: { userId: "u0", tags: { $in: ["t7", "all"] } } });
    expect(tagged.length).toBe(5000);
    expect(engine.lastPlan?.index).toBe("userId_1");
    const t7 = engine.find("db", "m", { filter: { userId: "u0", tags: "t7" } });
    expect(t7.length).toBe(100);
    expect(engine.lastPlan).toMatchObject({ index: "tags_1", keysExamined: 120, docsExamined: 120 });
  });

  it("should honour a hint even when another index reads fewer keys, and count nothing", async () => {
    await fillMessages();
    await indexes(["sessionId_1", { sessionId: 1 }], ["userId_1", { userId: 1 }]);
    const filter = { sessionId: "u0-s3", userId: "u0" };
    for (const hint of ["userId_1", { userId: 1 }]) {
      const r = engine.find("db", "m", { filter, hint });
      expect(r.length).toBe(250);
      expect(engine.lastPlan).toMatchObject({ index: "userId_1", keysExamined: 5000, docsExamined: 5000 });
      expect(engine.lastPlan?.planKeysCounted).toBeUndefined();
    }
  });
});

describe("planner: countKeys", () => {
  it("should count the keys of several intervals and stop at the cap", () => {
    const tree = newKeyTree<number>();
    for (let i = 0; i < 100; i++) tree.set(`k${String(i).padStart(3, "0")}`, i);
    const iv = (a: number, b: number) => ({
      low: `k${String(a).padStart(3, "0")}`,
      high: `k${String(b).padStart(3, "0")}`,
    });
    expect(countKeys(tree, [iv(10, 20)], 1000)).toBe(10);
    expect(countKeys(tree, [iv(10, 20), iv(50, 55), iv(200, 300)], 1000)).toBe(15);
    expect(countKeys(tree, [iv(10, 20), iv(50, 55)], 12)).toBe(12);
    expect(countKeys(tree, [iv(0, 100)], 5)).toBe(5);
    expect(countKeys(tree, [iv(30, 30)], 5)).toBe(0);
  });

  it("should resume where it stopped, across intervals, and say when they are exhausted", () => {
    const tree = newKeyTree<number>();
    for (let i = 0; i < 100; i++) tree.set(`k${String(i).padStart(3, "0")}`, i);
    const counter = new KeyCounter(tree, [
      { low: "k010", high: "k017" },
      { low: "k090", high: "k200" },
    ]);
    const steps: [number, boolean][] = [];
    while (!counter.done) {
      counter.advance(4);
      steps.push([counter.count, counter.done]);
    }
    expect(steps).toEqual([
      [4, false],
      [8, false],
      [12, false],
      [16, false],
      [17, true],
    ]);
  });
});
