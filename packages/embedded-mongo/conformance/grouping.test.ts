/**
 * $group and $dateToString as the admin statistics use them: counts per day in a time zone across both DST
 * changes, groups by field with $min/$max/$sum/$avg, null and missing as one group, and the results the
 * engine's fast $group path must give exactly like the general path (MongoDB's answers are the expectations).
 */
import type { Collection, Document } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTarget, type Target } from "./harness";

let target: Target;
let coll: Collection<{ _id: number } & Document>;

const at = (iso: string) => new Date(iso);
beforeAll(async () => {
  target = await openTarget("grouping");
  coll = target.client.db(target.dbName).collection("messages");
  await coll.insertMany([
    // Copenhagen: CET (+01:00) until 2026-03-29 01:00 UTC, CEST (+02:00) until 2026-10-25 01:00 UTC
    { _id: 1, s: "a", u: 1, t: at("2026-03-28T22:59:59.999Z"), n: 2 }, // 23:59:59 on the 28th
    { _id: 2, s: "a", u: 2, t: at("2026-03-28T23:00:00.000Z"), n: 3 }, // 00:00 on the 29th
    { _id: 3, s: "a", u: 1, t: at("2026-03-29T21:59:59.000Z"), n: 4.5 }, // 23:59:59 CEST, the 29th
    { _id: 4, s: "b", u: 1, t: at("2026-03-29T22:00:00.000Z") }, // 00:00 CEST, the 30th
    { _id: 5, s: "b", u: 3, t: at("2026-10-24T22:00:00.000Z"), n: 1 }, // 00:00 CEST, 25 Oct
    { _id: 6, s: "c", u: 3, t: at("2026-10-25T22:59:00.000Z"), n: null }, // 23:59 CET, 25 Oct
    { _id: 7, s: null, u: 3, t: at("2026-10-25T23:00:00.000Z") }, // 00:00 CET, 26 Oct
    { _id: 8, u: 4, t: null },
  ]);
});
afterAll(async () => {
  await target?.close();
});

const sorted = (docs: Document[]) =>
  [...docs].sort((a, b) => JSON.stringify(a._id).localeCompare(JSON.stringify(b._id)));

describe("$group with $dateToString in a time zone", () => {
  it("should count per Copenhagen day, DST-correct, with null dates as one null group", async () => {
    const days = await coll
      .aggregate([
        {
          $group: {
            _id: { $dateToString: { format: "%Y-%m-%d", date: "$t", timezone: "Europe/Copenhagen" } },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray();
    expect(sorted(days)).toEqual(
      sorted([
        { _id: "2026-03-28", n: 1 },
        { _id: "2026-03-29", n: 2 },
        { _id: "2026-03-30", n: 1 },
        { _id: "2026-10-25", n: 2 },
        { _id: "2026-10-26", n: 1 },
        { _id: null, n: 1 },
      ]),
    );
  });

  it("should format hours and minutes in the zone and with a fixed offset", async () => {
    const rows = await coll
      .aggregate([
        { $match: { _id: { $in: [4, 6] } } },
        {
          $group: {
            _id: {
              local: {
                $dateToString: { format: "%Y-%m-%d %H:%M", date: "$t", timezone: "Europe/Copenhagen" },
              },
              fixed: { $dateToString: { format: "%H:%M:%S.%L", date: "$t", timezone: "+05:30" } },
            },
          },
        },
        { $sort: { "_id.local": 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: { local: "2026-03-30 00:00", fixed: "03:30:00.000" } },
      { _id: { local: "2026-10-25 23:59", fixed: "04:29:00.000" } },
    ]);
  });

  it("should give the same day in $project as in $group", async () => {
    const rows = await coll
      .aggregate([
        { $match: { _id: { $in: [1, 2] } } },
        {
          $project: {
            d: { $dateToString: { format: "%Y-%m-%d", date: "$t", timezone: "Europe/Copenhagen" } },
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 1, d: "2026-03-28" },
      { _id: 2, d: "2026-03-29" },
    ]);
  });
});

describe("$group by a field with accumulators", () => {
  it("should compute $min, $max, $sum and $avg per group, ignoring null and missing", async () => {
    const rows = await coll
      .aggregate([
        {
          $group: {
            _id: "$s",
            first: { $min: "$t" },
            last: { $max: "$t" },
            count: { $sum: 1 },
            total: { $sum: "$n" },
            mean: { $avg: "$n" },
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      // null and missing s are one group; a null date is ignored by $min/$max
      {
        _id: null,
        first: at("2026-10-25T23:00:00.000Z"),
        last: at("2026-10-25T23:00:00.000Z"),
        count: 2,
        total: 0,
        mean: null,
      },
      {
        _id: "a",
        first: at("2026-03-28T22:59:59.999Z"),
        last: at("2026-03-29T21:59:59.000Z"),
        count: 3,
        total: 9.5,
        mean: 9.5 / 3,
      },
      {
        _id: "b",
        first: at("2026-03-29T22:00:00.000Z"),
        last: at("2026-10-24T22:00:00.000Z"),
        count: 2,
        total: 1,
        mean: 1,
      },
      {
        _id: "c",
        first: at("2026-10-25T22:59:00.000Z"),
        last: at("2026-10-25T22:59:00.000Z"),
        count: 1,
        total: 0,
        mean: null,
      },
    ]);
  });

  it("should average durations of groups in a second $group (session length)", async () => {
    const rows = await coll
      .aggregate([
        { $match: { s: { $type: "string" } } },
        { $group: { _id: "$s", first: { $min: "$t" }, last: { $max: "$t" }, n: { $sum: 1 } } },
        { $match: { n: { $gte: 2 } } },
        { $group: { _id: null, avgMs: { $avg: { $subtract: ["$last", "$first"] } } } },
      ])
      .toArray();
    const a = at("2026-03-29T21:59:59.000Z").getTime() - at("2026-03-28T22:59:59.999Z").getTime();
    const b = at("2026-10-24T22:00:00.000Z").getTime() - at("2026-03-29T22:00:00.000Z").getTime();
    expect(rows).toEqual([{ _id: null, avgMs: (a + b) / 2 }]);
  });

  it("should group by a path through an array like MongoDB (the array is the key)", async () => {
    const arr = target.client.db(target.dbName).collection("arrays");
    await arr.insertMany([{ tags: ["x", "y"] }, { tags: ["x", "y"] }, { tags: "x" }]);
    const rows = await arr
      .aggregate([{ $group: { _id: "$tags", n: { $sum: 1 } } }, { $sort: { n: -1 } }])
      .toArray();
    expect(rows).toEqual([
      { _id: ["x", "y"], n: 2 },
      { _id: "x", n: 1 },
    ]);
  });
});
