import { describe, expect, it } from "vitest";
import { Aggregator, Query, withContext } from "./mingo-context";
import { MINGO_OPTIONS } from "./query";

describe("withContext", () => {
  it("builds mingo's options once per options object (mingo's ComputeOptions was found)", () => {
    const built = withContext(MINGO_OPTIONS);
    expect(withContext(MINGO_OPTIONS)).toBe(built);
    // a plain object would make mingo copy every operator table for each Query again
    expect(Object.getPrototypeOf(built)).not.toBe(Object.prototype);
    expect(built.constructor.name).toBe("ComputeOptions");
  });

  it("gives each query and pipeline its own state over the shared options", () => {
    const a = new Query({ n: { $gt: 1 } }, MINGO_OPTIONS);
    const b = new Query({ $or: [{ n: 0 }, { s: "x" }] }, MINGO_OPTIONS);
    expect([
      a.test({ n: 2 }),
      a.test({ n: 0 }),
      b.test({ n: 0 }),
      b.test({ n: 2 }),
      b.test({ s: "x" }),
    ]).toEqual([true, false, true, false, true]);
    const p = new Aggregator([{ $match: { n: { $gte: 1 } } }, { $project: { _id: 0, n: 1 } }], MINGO_OPTIONS);
    expect(
      p.run([
        { _id: 1, n: 1, s: "a" },
        { _id: 2, n: 0 },
      ]),
    ).toEqual([{ n: 1 }]);
    // $$NOW is fixed per pipeline, not shared through the options
    const now = () =>
      new Aggregator([{ $project: { t: "$$NOW" } }], MINGO_OPTIONS).run([{ _id: 1 }])[0].t as Date;
    const first = now();
    const until = Date.now() + 5;
    while (Date.now() < until) {
      // wait for the clock to move
    }
    expect(now().getTime()).toBeGreaterThan(first.getTime());
  });
});
