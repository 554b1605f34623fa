/**
 * The mongoose connection. MONGODB_URI when configured; otherwise the embedded store under DATA_DIR/db.
 *
 * The embedded store's data directory is locked by the process that runs it. So the server writes its store's
 * URI to DATA_DIR/store.json; the CLI finds that file and, when the owning process is alive and the URI
 * answers, connects to it instead of starting a second store.
 */
import fs from "node:fs";
import path from "node:path";
import { redactUri } from "@vidensbank/embedded-mongo/uri";
import mongoose from "mongoose";
import type { AppConfig } from "../config";
import { logger } from "../logger";
import { ensurePrivateDir, writePrivateFileSync } from "../private-files";
import { runMigrations } from "./migrations";

export interface Database {
  uri: string;
  /** how the store was reached */
  mode: "external" | "embedded-started" | "embedded-shared" | "embedded-memory";
  /** the embedded store this process runs: remove expired TTL documents now (its monitor does every 60 s) */
  sweepExpired?(): Promise<number>;
  close(): Promise<void>;
}

interface StoreFile {
  uri: string;
  pid: number;
}

export function storeFilePath(dataDir: string): string {
  return path.join(dataDir, "store.json");
}

function readStoreFile(dataDir: string): StoreFile | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(storeFilePath(dataDir), "utf8")) as StoreFile;
    return typeof parsed.uri === "string" && typeof parsed.pid === "number" ? parsed : null;
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The database name used in the embedded store (an external MONGODB_URI names its own). */
export const EMBEDDED_DB_NAME = "vidensbank";

/** Connect, then bring the stored data up to date (db/migrations.ts) before anything reads it. */
async function connectMongoose(uri: string, dbName?: string): Promise<void> {
  await mongoose.connect(uri, {
    serverSelectionTimeoutMS: 5000,
    autoIndex: true,
    ...(dbName ? { dbName } : {}),
  });
  await runMigrations();
}

export interface OpenOptions {
  /** a private in-memory embedded store (tests) */
  memory?: boolean;
  /**
   * "server" (default): run the embedded store of DATA_DIR and publish its URI in store.json.
   * "client" (the CLI): use the running server's store when there is one; otherwise run the store for the
   * length of the command without publishing it (a server starting meanwhile waits for the directory).
   */
  role?: "server" | "client";
  /** how long to wait for a data directory held by a short-lived process (default 15 s) */
  lockWaitMs?: number;
}

type StartStore = typeof import("@vidensbank/embedded-mongo")["startEmbeddedStore"];

// The data directory is locked while another process runs a store on it. A CLI command holds it for a
// moment only, so wait for it rather than fail at once.
async function startStoreWaiting(start: StartStore, dbpath: string, waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await start({ dbpath, port: 0 });
    } catch (e) {
      if (Date.now() >= deadline) {
        throw new Error(`Could not open the embedded store in ${dbpath}: ${(e as Error).message}`);
      }
      logger.debug({ err: e }, "data directory busy; retrying");
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/**
 * Connect mongoose: MONGODB_URI, or the embedded store (see OpenOptions).
 * Returns a handle whose close() disconnects and stops what this call started.
 */
export async function openDatabase(config: AppConfig, opts: OpenOptions = {}): Promise<Database> {
  if (config.mongodbUri && !opts.memory) {
    await connectMongoose(config.mongodbUri);
    return { uri: config.mongodbUri, mode: "external", close: () => mongoose.disconnect() };
  }

  const { startEmbeddedStore } = await import("@vidensbank/embedded-mongo");

  if (opts.memory) {
    const store = await startEmbeddedStore({ memory: true });
    await connectMongoose(store.uri, EMBEDDED_DB_NAME);
    return {
      uri: store.uri,
      mode: "embedded-memory",
      sweepExpired: async () => (await store.engine.sweepTtl?.()) ?? 0,
      async close() {
        await mongoose.disconnect();
        await store.close();
      },
    };
  }

  const role = opts.role ?? "server";
  if (role === "client") {
    const shared = readStoreFile(config.dataDir);
    if (shared && shared.pid !== process.pid && processAlive(shared.pid)) {
      try {
        await connectMongoose(shared.uri, EMBEDDED_DB_NAME);
        logger.debug(
          { uri: redactUri(shared.uri), pid: shared.pid },
          "connected to the running server's embedded store",
        );
        return { uri: shared.uri, mode: "embedded-shared", close: () => mongoose.disconnect() };
      } catch (e) {
        logger.warn(
          { err: e, uri: redactUri(shared.uri) },
          "the store in store.json did not answer; starting one",
        );
      }
    }
  }

  const dbpath = path.join(config.dataDir, "db");
  ensurePrivateDir(dbpath, config.dataDir);
  const store = await startStoreWaiting(startEmbeddedStore, dbpath, opts.lockWaitMs ?? 15_000);
  const file = storeFilePath(config.dataDir);
  if (role === "server") {
    writePrivateFileSync(file, JSON.stringify({ uri: store.uri, pid: process.pid } satisfies StoreFile));
  }
  try {
    await connectMongoose(store.uri, EMBEDDED_DB_NAME);
  } catch (e) {
    await store.close();
    throw e;
  }
  return {
    uri: store.uri,
    mode: "embedded-started",
    sweepExpired: async () => (await store.engine.sweepTtl?.()) ?? 0,
    async close() {
      await mongoose.disconnect();
      if (readStoreFile(config.dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
      await store.close();
    },
  };
}

/** true when the store answers a ping (readiness). */
export async function pingDatabase(): Promise<boolean> {
  const db = mongoose.connection.db;
  if (mongoose.connection.readyState !== 1 || !db) return false;
  try {
    await db.admin().command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}
