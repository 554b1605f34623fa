import { describe, expect, it } from "vitest";
import { AuthCache, TokenMemo } from "./auth.cache";

const entry = (userId = "u1", sessionExpires = 10_000) => ({ userId, user: { name: "A" }, sessionExpires });

describe("AuthCache", () => {
  it("should answer for the session's own user within the TTL and before the session expires", () => {
    const cache = new AuthCache(1_000, 100);
    cache.set("s1", entry("u1", 5_000), cache.begin(), 1_000);
    expect(cache.get("s1", "u1", 1_500)?.user).toEqual({ name: "A" });
    expect(cache.get("s1", "u2", 1_500)).toBeUndefined(); // another user's token naming this sid
    cache.set("s1", entry("u1", 5_000), cache.begin(), 1_000);
    expect(cache.get("s1", "u1", 2_000)).toBeUndefined(); // TTL over: ask the store again
    cache.set("s2", entry("u1", 1_200), cache.begin(), 1_000);
    expect(cache.get("s2", "u1", 1_199)).toBeDefined();
    expect(cache.get("s2", "u1", 1_200)).toBeUndefined(); // the session has expired
  });

  it("should forget everything on clear() and drop results of lookups that started before it", () => {
    const cache = new AuthCache(1_000, 100);
    cache.set("s1", entry(), cache.begin(), 0);
    const started = cache.begin();
    cache.clear();
    expect(cache.get("s1", "u1", 10)).toBeUndefined();
    cache.set("s2", entry(), started, 0); // read before the clear: possibly stale, not kept
    expect(cache.get("s2", "u1", 10)).toBeUndefined();
    cache.set("s2", entry(), cache.begin(), 0);
    expect(cache.get("s2", "u1", 10)).toBeDefined();
  });

  it("should trust an entry longer only while other processes' changes are followed and caught up", () => {
    const cache = new AuthCache(1_000, 100, 60_000, 750);
    let caughtUp = 0;
    cache.follow({ since: 500, caughtUpTo: () => caughtUp });
    cache.set("s1", entry("u1", 100_000), cache.begin(), 1_000);
    caughtUp = 4_300;
    expect(cache.get("s1", "u1", 5_000)).toBeDefined(); // every change before 4 250 seen
    caughtUp = 4_200;
    expect(cache.get("s1", "u1", 5_000)).toBeUndefined(); // the streams lag (stalled, reopening): 1 s rule
    caughtUp = 4_900;
    expect(cache.get("s1", "u1", 5_000)).toBeDefined(); // caught up again: the entry was kept
    caughtUp = 60_990;
    expect(cache.get("s1", "u1", 61_000)).toBeUndefined(); // FOLLOWED_TTL over
    // read before the streams were open: a change in between may have been missed
    cache.set("s2", entry("u1", 100_000), cache.begin(), 400);
    expect(cache.get("s2", "u1", 1_300)).toBeDefined();
    caughtUp = 1_500;
    expect(cache.get("s2", "u1", 1_500)).toBeUndefined();
    // no longer followed: 1 s
    cache.set("s3", entry("u1", 100_000), cache.begin(), 1_000);
    cache.follow(null);
    caughtUp = 2_500;
    expect(cache.get("s3", "u1", 2_500)).toBeUndefined();
  });

  it("should stay within its size, dropping the oldest entries", () => {
    const cache = new AuthCache(1_000, 3);
    for (const sid of ["a", "b", "c", "d"]) cache.set(sid, entry(), cache.begin(), 0);
    expect(cache.size).toBe(3);
    expect(cache.get("a", "u1", 1)).toBeUndefined();
    expect(cache.get("d", "u1", 1)).toBeDefined();
  });
});

describe("TokenMemo", () => {
  it("should remember verified claims until the token expires, within its size", () => {
    const memo = new TokenMemo(2);
    memo.set("t1", { sub: "u1", sid: "s1", exp: 100 });
    expect(memo.get("t1", 99_999)).toEqual({ sub: "u1", sid: "s1", exp: 100 });
    expect(memo.get("t1", 100_000)).toBeUndefined(); // jose's rule: expired when exp <= now (seconds)
    memo.set("t1", { sub: "u1", sid: "s1", exp: 100 });
    memo.set("t2", { sub: "u1", sid: "s2", exp: 100 });
    memo.set("t3", { sub: "u1", sid: "s3", exp: 100 });
    expect(memo.get("t1", 0)).toBeUndefined();
    expect(memo.get("t3", 0)?.sid).toBe("s3");
  });
});
