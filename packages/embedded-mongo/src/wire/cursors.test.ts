import { Long } from "bson";
import { afterEach, describe, expect, it } from "vitest";
import { StoreError } from "../engine/types";
import { CursorManager, toCursorId } from "./cursors";

let manager: CursorManager | undefined;
afterEach(() => manager?.close());

const docs = (n: number) => Array.from({ length: n }, (_, i) => ({ _id: i }));

describe("CursorManager", () => {
  it("should close a cursor idle for longer than the timeout", async () => {
    manager = new CursorManager(50, 10);
    const reply = manager.open("db.c", docs(10), 2);
    const id = reply.cursor.id.toBigInt();
    expect(id).not.toBe(0n);
    expect(manager.getMore(id, "db.c", 2).cursor.nextBatch).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 120));
    expect(manager.size).toBe(0);
    expect(() => manager?.getMore(id, "db.c", 2)).toThrow(StoreError);
  });

  it("should keep a cursor alive while it is used", async () => {
    manager = new CursorManager(80, 10);
    const id = manager.open("db.c", docs(10), 1).cursor.id.toBigInt();
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 40));
      manager.getMore(id, "db.c", 1);
    }
    expect(manager.size).toBe(1);
  });

  it("should split batches by size so a reply stays under the BSON limit", () => {
    manager = new CursorManager();
    const big = "x".repeat(4 * 1024 * 1024);
    const reply = manager.open(
      "db.c",
      Array.from({ length: 6 }, (_, i) => ({ _id: i, big })),
      101,
    );
    expect(reply.cursor.firstBatch?.length).toBe(3);
    const more = manager.getMore(reply.cursor.id.toBigInt(), "db.c", undefined);
    expect(more.cursor.nextBatch?.length).toBe(3);
    expect(more.cursor.id.isZero()).toBe(true);
  });

  it("should not open a cursor for a single batch or an exhausted result", () => {
    manager = new CursorManager();
    expect(manager.open("db.c", docs(5), 2, true).cursor.id.isZero()).toBe(true);
    expect(manager.open("db.c", docs(5), 10).cursor.id.isZero()).toBe(true);
    expect(manager.size).toBe(0);
  });

  it("should accept cursor ids as number, Long or bigint", () => {
    expect(toCursorId(5)).toBe(5n);
    expect(toCursorId(Long.fromNumber(7))).toBe(7n);
    expect(toCursorId(9n)).toBe(9n);
    expect(toCursorId("5")).toBeUndefined();
  });
});
