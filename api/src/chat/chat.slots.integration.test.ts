/** Answer slots counted in the store (chat.slots.ts), two "processes" sharing one embedded store. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreAnswerSlots } from "./chat.slots";
import { openTestStore } from "./chat.test-helpers";

let store: Awaited<ReturnType<typeof openTestStore>>;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store.close();
});

describe("store answer slots", () => {
  it("holds at most `max` per user across processes, frees on release and on expiry", async () => {
    const a = new StoreAnswerSlots("A", 300, 100_000);
    const b = new StoreAnswerSlots("B", 300, 100_000);
    try {
      const r1 = await a.acquire("u1", 2);
      const r2 = await b.acquire("u1", 2);
      expect(r1).toBeTypeOf("function");
      expect(r2).toBeTypeOf("function");
      expect(await a.acquire("u1", 2)).toBeNull();
      expect(await b.acquire("u1", 2)).toBeNull();
      expect(await b.acquire("u2", 2)).toBeTypeOf("function"); // per user
      r1?.();
      await new Promise((r) => setTimeout(r, 50));
      expect(await b.acquire("u1", 2)).toBeTypeOf("function");
      // a crashed process never releases: its lease expires
      await new Promise((r) => setTimeout(r, 350));
      expect(await a.acquire("u1", 2)).toBeTypeOf("function");
    } finally {
      a.close();
      b.close();
    }
  });
});
