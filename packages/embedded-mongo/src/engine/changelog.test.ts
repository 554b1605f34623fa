import { describe, expect, it } from "vitest";
import { ChangeLog, seqParts } from "./changelog";

const insert = (id: number) => ({
  op: "insert" as const,
  db: "d",
  coll: "c",
  id,
  doc: { _id: id },
  bytes: 10,
});

describe("change log", () => {
  it("should publish a command's changes only when it commits, in order, with growing operation times", () => {
    const log = new ChangeLog();
    const start = log.lastCommitted;
    log.note(insert(1));
    log.note(insert(2));
    expect([...log.after(start)]).toEqual([]);
    log.publish();
    const seen = [...log.after(start)];
    expect(seen.map((e) => e.id)).toEqual([1, 2]);
    expect(seen[1].seq).toBeGreaterThan(seen[0].seq);
    expect(log.lastCommitted).toBe(seen[1].seq);
    log.note(insert(3));
    log.discard();
    log.publish();
    expect(log.size).toBe(2);
  });

  it("should take operation times from the clock and tell runs apart", () => {
    let now = 1_700_000_000_500;
    const first = new ChangeLog({ now: () => now });
    first.note(insert(1));
    first.publish();
    now += 2000;
    const second = new ChangeLog({ now: () => now });
    // a later run counts everything before its start as lost; same-second restarts differ by runId
    expect(second.lostUpTo).toBeGreaterThan(first.lastCommitted);
    expect(second.runId).not.toBe(first.runId);
    now += 5000;
    second.note(insert(2));
    second.publish();
    expect(seqParts(second.lastCommitted)).toEqual({ t: 1_700_000_007, i: 1 });
  });

  it("should keep a bounded history and remember what it forgot", () => {
    const log = new ChangeLog({ maxEvents: 3, maxBytes: 25 });
    for (let i = 1; i <= 5; i++) {
      log.note(insert(i));
      log.publish();
    }
    // 25 bytes hold two 10-byte documents
    const kept = [...log.after(0n)];
    expect(kept.map((e) => e.id)).toEqual([4, 5]);
    expect(log.lostUpTo).toBe(log.at(kept[0].seq)!.seq - 1n);
    expect(log.at(kept[0].seq - 1n)).toBeUndefined();
  });

  it("should wake a waiter on publish, not before, and give up at its timeout", async () => {
    const log = new ChangeLog();
    let woke = false;
    const waiting = log.waitForChange(5000).then(() => {
      woke = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(woke).toBe(false);
    log.note(insert(1));
    log.publish();
    await waiting;
    expect(woke).toBe(true);
    const started = Date.now();
    await log.waitForChange(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    log.close();
    await log.waitForChange(60_000); // a closed log never blocks
  });
  it("should wake a waiter with `wants` only for a change it wants, or when history is dropped", async () => {
    const log = new ChangeLog({ maxEvents: 3 });
    const woken: string[] = [];
    const wait = (name: string, id: number) =>
      log
        .waitForChange(60_000, undefined, (e) => e.id === id)
        .then(() => {
          woken.push(name);
        });
    const a = wait("a", 2);
    const b = wait("b", 3);
    log.note(insert(1));
    log.publish();
    await new Promise((r) => setTimeout(r, 20));
    expect(woken).toEqual([]); // nobody wanted 1
    log.note(insert(2));
    log.publish();
    await a;
    expect(woken).toEqual(["a"]);
    // 3 is still wanted by b, but first the history drops 1 when the fourth change arrives: everyone wakes
    log.note(insert(4));
    log.note(insert(5));
    log.publish();
    await b;
    expect(woken).toEqual(["a", "b"]);
    expect(log.lostUpTo).toBeGreaterThan(0n);
    log.close();
  });
});
