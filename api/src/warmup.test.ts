/**
 * The start-up warm-up (warmup.ts): it runs the hot paths (every GraphQL operation it sends still matches
 * the schema), it leaves no trace in the store, /readyz says "warming" while it runs after listening, and
 * WARMUP=0 skips it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterEach, describe, expect, it } from "vitest";
import { ChatMessageModel, ChatSessionModel } from "./chat/chat.model";
import { loadConfig } from "./config";
import { RecentSearchModel } from "./knowledge/recent-search.model";
import { type StartedServer, startServer } from "./start";
import { startTestApp, type TestApp } from "./testing/app";

/** every collection's name and document count */
async function storeSnapshot() {
  const db = mongoose.connection.db!;
  const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
  const counts: Record<string, number> = {};
  for (const n of names) counts[n] = await db.collection(n).countDocuments();
  return { names, counts };
}

let app: TestApp | undefined;
let server: StartedServer | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  if (server) {
    await server.warmed;
    await server.app.close();
    await server.services.close();
    await server.db.close();
    server = undefined;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe("the start-up warm-up", () => {
  it("should run the hot paths and leave the store as a start without it does", async () => {
    app = await startTestApp({ mail: "outbox" });
    expect(app.warmup).toBeNull(); // off under NODE_ENV=test unless asked for
    const cold = await storeSnapshot();
    await app.close();

    app = await startTestApp({ mail: "outbox", config: { warmup: "first" } });
    const report = app.warmup!;
    expect(report.rounds).toBeGreaterThanOrEqual(1);
    expect(report.calls).toBeGreaterThan(0);
    // an operation the schema no longer accepts (a renamed field) would show here
    expect(report.unexpected).toEqual([]);
    await app.services.knowledge.searchesRecorded();
    const warm = await storeSnapshot();
    // no activity entries, recent searches, rate-limit counts, chat sessions or messages, no new collection
    expect(warm).toEqual(cold);
    expect(await RecentSearchModel.countDocuments()).toBe(0);
    expect(await ChatSessionModel.countDocuments()).toBe(0);
    expect(await ChatMessageModel.countDocuments()).toBe(0);
  });

  it("should answer /readyz 503 'warming' while it runs after listening (WARMUP=1), then 200", async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-warmup-"));
    const config = loadConfig({
      NODE_ENV: "test",
      WARMUP: "1",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "warmup-test-password",
    });
    expect(config.warmup).toBe("background");
    server = await startServer(config, { port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${server.port}`;
    const during = await fetch(`${url}/readyz`);
    expect(during.status).toBe(503);
    expect(await during.json()).toEqual({ status: "warming", database: true });
    expect((await fetch(`${url}/healthz`)).status).toBe(200); // alive meanwhile
    const report = await server.warmed;
    expect(report?.rounds).toBeGreaterThanOrEqual(1);
    const after = await fetch(`${url}/readyz`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: "ok", database: true });
  });

  it("should not run with WARMUP=0: ready at once", async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-warmup-"));
    const config = loadConfig({ NODE_ENV: "production", WARMUP: "0", DATA_DIR: dataDir });
    expect(config.warmup).toBe("off");
    server = await startServer(config, { port: 0, host: "127.0.0.1" });
    expect(await server.warmed).toBeNull();
    expect((await fetch(`http://127.0.0.1:${server.port}/readyz`)).status).toBe(200);
  });

  it("should read WARMUP: on after listening by default, before listening with 'first', off in tests", () => {
    expect(loadConfig({ NODE_ENV: "production" }).warmup).toBe("background");
    expect(loadConfig({}).warmup).toBe("background");
    expect(loadConfig({ WARMUP: "first" }).warmup).toBe("first");
    expect(loadConfig({ NODE_ENV: "test" }).warmup).toBe("off");
    expect(loadConfig({ NODE_ENV: "test", WARMUP: "1" }).warmup).toBe("background");
    expect(() => loadConfig({ WARMUP: "yes" })).toThrow(/WARMUP/);
  });
});
