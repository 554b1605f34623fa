/**
 * Random hex strings for values made on every question (the prompt's source-delimiter nonce, an answer slot's
 * lease), from a pool of random bytes filled POOL_BYTES at a time: one call into the CSPRNG per ~680 questions
 * instead of one per value (each cost ~5–10 µs of a question's pre-model CPU). Every byte is handed out once,
 * so the values are as unpredictable as one randomBytes call each.
 */
import { randomFillSync } from "node:crypto";

/** bytes drawn from the CSPRNG at a time */
export const POOL_BYTES = 4_096;

const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` fresh random bytes as 2 × bytes hex characters (bytes ≤ POOL_BYTES). */
export function randomHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > POOL_BYTES) throw new RangeError("randomHex: bytes");
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString("hex", used, used + bytes);
  // overwritten, so a byte handed out can never be handed out again (even by a bug in the bookkeeping above)
  pool.fill(0, used, used + bytes);
  used += bytes;
  return hex;
}
