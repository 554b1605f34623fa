/** The listener registry's rules, without a store: what is announced, when a scope counts as listened elsewhere. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ListenChange, ListenerRegistry } from "./listeners";

afterEach(() => {
  vi.useRealTimers();
});

function registry(opts: { ttlMs?: number; renewMs?: number } = {}) {
  const announced: ListenChange[][] = [];
  const caughtUp: Array<{ topic: string; events: unknown[] }> = [];
  const r = new ListenerRegistry({
    ...opts,
    announce: (changes) => announced.push(changes),
    catchUp: (topic, events) => caughtUp.push({ topic, events }),
  });
  return { r, announced, caughtUp };
}

describe("ListenerRegistry", () => {
  it("announces a scope at its first subscriber here and withdraws it when the last one leaves", () => {
    const { r, announced } = registry({ ttlMs: 1_000 });
    const first = r.listen("T", "s1");
    const second = r.listen("T", "s1");
    expect(announced).toEqual([[{ t: "T", s: "s1", ttl: 1_000 }]]);
    first();
    first(); // a release runs once
    expect(announced).toHaveLength(1);
    second();
    expect(announced.at(-1)).toEqual([{ t: "T", s: "s1", ttl: 0 }]);
    r.withdrawAll();
  });

  it("counts a scope listened elsewhere until its announcement is withdrawn or expires", () => {
    vi.useFakeTimers();
    const { r } = registry();
    r.received("B", { t: "T", s: "s1", ttl: 500 });
    r.received("C", { t: "T", s: "s2", ttl: 500 });
    expect(r.listenedElsewhere("T", "s1")).toBe(true);
    expect(r.listenedElsewhere("T", "other")).toBe(false);
    expect(r.listenedElsewhere("U", "s1")).toBe(false);
    r.received("C", { t: "T", s: "s2", ttl: 0 });
    expect(r.listenedElsewhere("T", "s2")).toBe(false);
    vi.advanceTimersByTime(499);
    expect(r.listenedElsewhere("T", "s1")).toBe(true);
    vi.advanceTimersByTime(1);
    expect(r.listenedElsewhere("T", "s1")).toBe(false);
    // malformed announcements are ignored
    r.received("D", { t: "T", s: 5, ttl: 500 });
    r.received("D", null);
    expect(r.listenedElsewhere("T", "5")).toBe(false);
    r.withdrawAll();
  });

  it("asks for a scope's catch-up only when it gains its first listener elsewhere", () => {
    const { r, caughtUp } = registry();
    r.setCatchUp("T", (scope) => [`so far in ${scope}`]);
    r.received("B", { t: "T", s: "s1", ttl: 500 });
    r.received("C", { t: "T", s: "s1", ttl: 500 }); // another listener: already written
    r.received("B", { t: "T", s: "s1", ttl: 500 }); // a renewal
    r.received("B", { t: "U", s: "s1", ttl: 500 }); // a topic without catch-up
    expect(caughtUp).toEqual([{ topic: "T", events: ["so far in s1"] }]);
    r.received("B", { t: "T", s: "s1", ttl: 0 });
    r.received("C", { t: "T", s: "s1", ttl: 0 });
    r.received("B", { t: "T", s: "s1", ttl: 500 }); // listened again after nobody did
    expect(caughtUp).toHaveLength(2);
    r.withdrawAll();
  });

  it("announces the scopes still listened here again every renewal, and withdraws them all at shutdown", () => {
    vi.useFakeTimers();
    const { r, announced } = registry({ ttlMs: 300, renewMs: 100 });
    r.listen("T", "s1");
    const release = r.listen("T", "s2");
    release();
    announced.length = 0;
    vi.advanceTimersByTime(100);
    expect(announced).toEqual([[{ t: "T", s: "s1", ttl: 300 }]]);
    r.withdrawAll();
    expect(announced.at(-1)).toEqual([{ t: "T", s: "s1", ttl: 0 }]);
    vi.advanceTimersByTime(500);
    expect(announced).toHaveLength(2); // no renewal after shutdown
  });
});
