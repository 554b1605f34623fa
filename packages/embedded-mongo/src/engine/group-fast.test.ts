import { Long, ObjectId } from "bson";
import { describe, expect, it } from "vitest";
import { fastGroup } from "./group-fast";
import { Aggregator } from "./mingo-context";

const docs = [
  {
    _id: 1,
    s: "a",
    u: new ObjectId("64b000000000000000000001"),
    t: new Date("2026-03-28T22:59:59.999Z"),
    n: 2,
  },
  {
    _id: 2,
    s: "a",
    u: new ObjectId("64b000000000000000000002"),
    t: new Date("2026-03-28T23:00:00Z"),
    n: Long.fromNumber(3),
  },
  {
    _id: 3,
    s: "b",
    u: new ObjectId("64b000000000000000000001"),
    t: new Date("2026-10-25T22:59:00Z"),
    n: 1.5,
  },
  { _id: 4, s: null, t: null, n: null, o: { k: 1 } },
  { _id: 5, o: { k: 2 } },
];

const slow = (stage: Record<string, unknown>) => new Aggregator([{ $group: stage }]).run(docs);

describe("fastGroup", () => {
  it.each([
    { _id: null, n: { $sum: 1 } },
    {
      _id: "$s",
      n: { $sum: 1 },
      total: { $sum: "$n" },
      lo: { $min: "$t" },
      hi: { $max: "$t" },
      avg: { $avg: "$n" },
    },
    { _id: "$u", first: { $first: "$_id" }, last: { $last: "$_id" } },
    { _id: "$o.k", n: { $sum: 2 } },
    { _id: { $dateToString: { format: "%Y-%m-%d %H", date: "$t", timezone: "+05:07" } } },
    {
      _id: "$s",
      span: { $max: { $subtract: ["$t", "$t"] } },
      avg: { $avg: { $subtract: ["$_id", "$_id"] } },
    },
    {
      _id: {
        d: { $dateToString: { format: "%Y-%m-%d", date: "$t", timezone: "Europe/Copenhagen" } },
        u: "$u",
      },
    },
    {
      _id: { $dateToString: { format: "%Y-%m-%dT%H:%M:%S.%L", date: "$t", timezone: "-03:00" } },
      n: { $sum: 1 },
    },
  ])("should give what the general path gives for %j", (stage) => {
    const fast = fastGroup(stage, docs);
    expect(fast).toBeDefined();
    expect(fast).toEqual(slow(stage));
  });

  it.each([
    { _id: "$s", x: { $push: "$n" } },
    { _id: { $toUpper: "$s" } },
    { _id: "$$ROOT" },
    { _id: { $dateToString: { format: "%B", date: "$t" } } },
    { _id: "$s", n: { $sum: { $multiply: ["$n", 2] } } },
  ])("should leave %j to the general path", (stage) => {
    expect(fastGroup(stage, docs)).toBeUndefined();
  });

  it("should leave a document with a path through an array, or a non-date date, to the general path", () => {
    expect(fastGroup({ _id: "$a.b" }, [{ a: [{ b: 1 }] }])).toBeUndefined();
    expect(fastGroup({ _id: { $dateToString: { date: "$t" } } }, [{ t: "2026-01-01" }])).toBeUndefined();
    // a Long in $subtract: mingo's (BSON-aware) arithmetic
    expect(fastGroup({ _id: null, d: { $sum: { $subtract: ["$n", "$_id"] } } }, docs)).toBeUndefined();
  });
});
