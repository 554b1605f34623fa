/** Channel's pace: values of one key reach a waiting consumer at most once per `ms`, merged meanwhile. */
import { describe, expect, it } from "vitest";
import { settledNow } from "../testing/settled-now";
import { Channel } from "./channel";

interface Item {
  key: string | null;
  text: string;
}

// long enough that a loaded machine does not pass it between two steps of a test
const PACE_MS = 300;

function paced(): Channel<Item> {
  return new Channel<Item>(
    100,
    () => undefined,
    (queued, next) =>
      queued.key !== null && queued.key === next.key ? { ...queued, text: queued.text + next.text } : null,
    { ms: () => PACE_MS, key: (item) => item.key },
  );
}

describe("Channel pace", () => {
  it("hands the first value of a key over at once, holds the next ones until PACE_MS after it, merged", async () => {
    const ch = paced();
    const first = ch.next();
    const start = performance.now();
    ch.push({ key: "m1", text: "Kla" });
    expect(await settledNow(first)).toBe(true);
    expect((await first).value).toEqual({ key: "m1", text: "Kla" });

    const second = ch.next();
    ch.push({ key: "m1", text: "gef" });
    ch.push({ key: "m1", text: "ris" });
    expect(await settledNow(second)).toBe(false);
    expect((await second).value).toEqual({ key: "m1", text: "gefris" });
    expect(performance.now() - start).toBeGreaterThanOrEqual(PACE_MS - 2);
    ch.close();
  });

  it("lets a held value go at once, first, when a value without a key or of another key comes", async () => {
    const ch = paced();
    const first = ch.next();
    ch.push({ key: "m1", text: "a" });
    await first;
    const held = ch.next();
    ch.push({ key: "m1", text: "b" });
    expect(await settledNow(held)).toBe(false);
    ch.push({ key: null, text: "COMPLETED" });
    expect(await settledNow(held)).toBe(true);
    expect((await held).value).toEqual({ key: "m1", text: "b" });
    expect((await ch.next()).value).toEqual({ key: null, text: "COMPLETED" });

    // after a value without a key, and for another key, nothing is held
    const other = ch.next();
    ch.push({ key: "m1", text: "c" });
    expect(await settledNow(other)).toBe(true);
    const m2 = ch.next();
    ch.push({ key: "m2", text: "x" });
    expect(await settledNow(m2)).toBe(true);
    expect((await m2).value).toEqual({ key: "m2", text: "x" });
    ch.close();
  });

  it("does not hold a value once PACE_MS has passed, and a closed channel ends a held wait", async () => {
    const ch = paced();
    const first = ch.next();
    ch.push({ key: "m1", text: "a" });
    await first;
    await new Promise((r) => setTimeout(r, PACE_MS + 5));
    const late = ch.next();
    ch.push({ key: "m1", text: "b" });
    expect(await settledNow(late)).toBe(true);

    const held = ch.next();
    ch.push({ key: "m1", text: "c" });
    ch.close();
    expect(await held).toEqual({ value: undefined, done: true });
  });
});
