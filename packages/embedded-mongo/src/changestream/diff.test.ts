import { Long, ObjectId } from "bson";
import { describe, expect, it } from "vitest";
import { describeUpdate } from "./diff";

describe("updateDescription", () => {
  it("should report set, removed and nested fields by dotted path", () => {
    expect(
      describeUpdate({ _id: 1, a: 1, s: { x: 1, y: 2 } }, { _id: 1, s: { x: 5, y: 2 }, b: "n" }),
    ).toEqual({
      updatedFields: { "s.x": 5, b: "n" },
      removedFields: ["a"],
      truncatedArrays: [],
    });
  });

  it("should report appended, changed and truncated array elements", () => {
    expect(describeUpdate({ arr: [1, 2] }, { arr: [1, 2, 3] }).updatedFields).toEqual({ "arr.2": 3 });
    expect(describeUpdate({ arr: [1, { k: 1 }] }, { arr: [1, { k: 2 }] }).updatedFields).toEqual({
      "arr.1.k": 2,
    });
    expect(describeUpdate({ arr: [1, 2, 3] }, { arr: [9] })).toEqual({
      updatedFields: { "arr.0": 9 },
      removedFields: [],
      truncatedArrays: [{ field: "arr", newSize: 1 }],
    });
  });

  it("should treat equal BSON values as unchanged and a changed type as a whole new value", () => {
    const id = new ObjectId();
    const at = new Date(1000);
    const before = { id, at, n: Long.fromNumber(2 ** 60), v: { a: 1 } };
    const after = {
      id: new ObjectId(id.toHexString()),
      at: new Date(1000),
      n: Long.fromNumber(2 ** 60),
      v: [1],
    };
    expect(describeUpdate(before, after).updatedFields).toEqual({ v: [1] });
  });
});
