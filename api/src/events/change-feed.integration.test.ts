/**
 * A change feed over the embedded store: ready as soon as the stream is open (not after the first getMore's
 * wait for changes, which held every start of a shared process up by a second), and a change committed right
 * after ready is seen.
 */
import { startEmbeddedStore } from "@vidensbank/embedded-mongo";
import mongoose, { type mongo } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openChangeFeed } from "./change-feed";

let store: Awaited<ReturnType<typeof startEmbeddedStore>>;

beforeAll(async () => {
  store = await startEmbeddedStore({ memory: true });
  await mongoose.connect(store.uri, { dbName: "feed" });
});

afterAll(async () => {
  await mongoose.disconnect();
  await store.close();
});

describe("change feed", () => {
  it("should be ready once the stream is open, well before a getMore's wait, and see a change made right after", async () => {
    const seen: mongo.ChangeStreamDocument[] = [];
    const t0 = performance.now();
    const feed = openChangeFeed({
      collection: "things",
      onChange: (c) => {
        seen.push(c);
      },
      onResync: () => undefined,
    });
    try {
      await feed.ready;
      const readyMs = performance.now() - t0;
      await mongoose.connection.collection("things").insertOne({ name: "first" });
      const deadline = Date.now() + 5_000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(seen.map((c) => c.operationType)).toEqual(["insert"]);
      expect(readyMs).toBeLessThan(700); // a getMore waits 1 s for changes
    } finally {
      await feed.close();
    }
  });
});
