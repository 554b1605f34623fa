import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../logger";
import { MailQueue } from "./mail-queue";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("MailQueue", () => {
  it("should run jobs after the caller, at most `concurrency` at once, and report idle when all are done", async () => {
    const queue = new MailQueue(2, 100);
    let running = 0;
    let most = 0;
    const done: number[] = [];
    for (let i = 0; i < 6; i++) {
      queue.enqueue("test", async () => {
        running += 1;
        most = Math.max(most, running);
        await sleep(10);
        running -= 1;
        done.push(i);
      });
    }
    // nothing has finished yet: enqueue() returned at once
    expect(done).toEqual([]);
    await queue.idle();
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(queue.pending).toBe(0);
  });

  it("should log a failing job and go on with the next ones", async () => {
    const errors = vi.spyOn(logger, "error");
    const queue = new MailQueue(1, 100);
    const done: string[] = [];
    queue.enqueue("rejects", async () => {
      throw new Error("smtp nede");
    });
    queue.enqueue("throws", () => {
      throw new Error("synkron fejl");
    });
    queue.enqueue("ok", async () => {
      done.push("ok");
    });
    await queue.idle();
    expect(done).toEqual(["ok"]);
    const kinds = errors.mock.calls.map((c) => (c[0] as { kind?: string }).kind);
    expect(kinds).toEqual(expect.arrayContaining(["rejects", "throws"]));
  });

  it("should drop and log jobs beyond the waiting limit instead of growing without bound", async () => {
    const errors = vi.spyOn(logger, "error");
    const queue = new MailQueue(1, 2);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let ran = 0;
    const job = async () => {
      await gate;
      ran += 1;
    };
    for (let i = 0; i < 5; i++) queue.enqueue("flood", job); // 1 running + 2 waiting, 2 dropped
    expect(queue.pending).toBe(3);
    release();
    await queue.idle();
    expect(ran).toBe(3);
    expect(errors.mock.calls.filter((c) => String(c[1]).includes("dropped"))).toHaveLength(2);
  });

  it("should stop waiting for a stuck job after the drain timeout", async () => {
    const queue = new MailQueue(1, 10);
    queue.enqueue("stuck", () => new Promise<void>(() => undefined));
    const start = Date.now();
    await queue.idle(50);
    expect(Date.now() - start).toBeGreaterThanOrEqual(45);
    expect(queue.pending).toBe(1);
  });
});
