import type { Document } from "bson";
import { describe, expect, it } from "vitest";
import { type ChangeEntry, ChangeLog } from "../engine/changelog";
import { compileFilter } from "../engine/query";
import { changeEvent } from "./events";
import { entryPrefilter } from "./prefilter";
import { ChangeStream } from "./stream";

const entry = (op: ChangeEntry["op"], coll: string | undefined, db = "app"): ChangeEntry => ({
  seq: 1n,
  wall: new Date(0),
  op,
  db,
  coll,
  id: 1,
  doc: op === "delete" || op === "drop" || op === "dropDatabase" ? undefined : { _id: 1, o: "a" },
  before: op === "update" ? { _id: 1 } : undefined,
  to: op === "rename" ? { db, coll: "moved" } : undefined,
  bytes: 0,
});

const ENTRIES: ChangeEntry[] = [
  ...(["insert", "update", "replace", "delete", "drop", "rename"] as const).flatMap((op) =>
    ["users", "sessions", "events", "articles"].map((c) => entry(op, c)),
  ),
  entry("insert", "users", "other"),
  entry("dropDatabase", undefined),
];

const FILTERS: Document[] = [
  // the app's streams (auth.watch.ts, store-bus.ts, knowledge.watch.ts)
  {
    $or: [
      { "ns.coll": "users", operationType: { $in: ["insert", "update", "replace", "delete", "drop"] } },
      { "ns.coll": "sessions", operationType: { $in: ["update", "replace", "delete", "drop"] } },
    ],
  },
  { operationType: "insert", "fullDocument.o": { $ne: "b" } },
  { operationType: { $in: ["insert", "update", "replace", "delete"] } },
  { "ns.db": "app", "ns.coll": { $eq: "users" } },
  { $and: [{ operationType: "delete" }, { "documentKey._id": 1 }] },
  { $or: [{ operationType: "insert" }, { "fullDocument.o": "a" }] },
  { operationType: { $in: ["insert", null] } },
  { operationType: { $nin: ["insert"] } },
  { "ns.coll": /^us/ },
  { ns: { db: "app", coll: "users" } },
];

describe("entryPrefilter", () => {
  it.each(FILTERS)("never rejects an entry whose event %o matches", (filter) => {
    const test = entryPrefilter([{ $match: filter }]);
    const match = compileFilter(filter);
    for (const e of ENTRIES) {
      const event = changeEvent({ kind: "database", db: "app" }, e, "default", () => null, "00000000");
      if (event && match(event)) expect(test?.(e) ?? true, `${e.op} ${e.db}.${e.coll}`).toBe(true);
    }
  });

  it("rejects what the app's sign-in stream does not want, without building events", () => {
    const test = entryPrefilter([{ $match: FILTERS[0] }, { $project: { operationType: 1 } }]);
    expect(test).toBeDefined();
    const passed = ENTRIES.filter((e) => test!(e)).map((e) => `${e.op} ${e.db}.${e.coll}`);
    expect(passed).toEqual([
      "insert app.users",
      "update app.users",
      "update app.sessions",
      "replace app.users",
      "replace app.sessions",
      "delete app.users",
      "delete app.sessions",
      "drop app.users",
      "drop app.sessions",
      "insert other.users",
    ]);
  });

  it("limits nothing for conditions it does not understand, and reads only the leading $match stages", () => {
    expect(entryPrefilter([{ $match: { "fullDocument.o": "a" } }])).toBeUndefined();
    expect(entryPrefilter([{ $match: { $or: [{ operationType: "insert" }, { x: 1 }] } }])).toBeUndefined();
    expect(entryPrefilter([{ $project: { x: 1 } }, { $match: { operationType: "insert" } }])).toBeUndefined();
  });
  it("wakes a waiting stream only for a change it has an event for, or its end", () => {
    const scope = { kind: "collection", db: "app", coll: "users" } as const;
    const stream = ChangeStream.open(
      new ChangeLog(),
      scope,
      {},
      [{ $match: { operationType: "insert" } }],
      () => null,
    );
    expect(stream.wants(entry("insert", "users"))).toBe(true);
    expect(stream.wants(entry("update", "users"))).toBe(false);
    expect(stream.wants(entry("drop", "users"))).toBe(true); // the invalidate
    expect(stream.wants(entry("insert", "sessions"))).toBe(false);
  });
});
