import { describe, expect, it } from "vitest";
import { POOL_BYTES, randomHex } from "./random-hex";

describe("randomHex", () => {
  it("gives 2 × bytes hex characters", () => {
    expect(randomHex(6)).toMatch(/^[0-9a-f]{12}$/);
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("never hands out the same bytes twice, across refills of the pool", () => {
    // 3 pools' worth of 8-byte values: a repeat among them would be a 1 in ~2^50 coincidence, not chance
    const n = Math.ceil((3 * POOL_BYTES) / 8);
    const seen = new Set(Array.from({ length: n }, () => randomHex(8)));
    expect(seen.size).toBe(n);
  });

  it("takes a value that does not fit the rest of the pool from a fresh one (no zeroed bytes)", () => {
    // values of 4,000 bytes: the second never fits after the first, so each comes from a new fill; a reused
    // (zeroed) part of the pool would show as long runs of 00
    for (let i = 0; i < 3; i++) expect(randomHex(4_000)).not.toMatch(/(00){16}/);
  });

  it("refuses sizes outside 1..POOL_BYTES", () => {
    expect(() => randomHex(0)).toThrow(RangeError);
    expect(() => randomHex(POOL_BYTES + 1)).toThrow(RangeError);
    expect(() => randomHex(1.5)).toThrow(RangeError);
  });
});
