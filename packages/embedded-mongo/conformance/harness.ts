/**
 * Where the conformance suite runs: the embedded store (default, one in-memory store per test file) or a real
 * MongoDB when MONGODB_URI is set (then every file works in its own, uniquely named database and drops it after).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient, MongoServerError } from "mongodb";
import { expect } from "vitest";
import { type EmbeddedStore, startEmbeddedStore } from "../src";

export interface Target {
  uri: string;
  /** a database name unique to this test file and run */
  dbName: string;
  /** the embedded store, or undefined when testing against a real MongoDB */
  store?: EmbeddedStore;
  /** a connected driver client for the target (closed by close()) */
  client: MongoClient;
  close(): Promise<void>;
}

/** true when the suite talks to a real MongoDB (MONGODB_URI) rather than the embedded store */
export const againstRealMongo = Boolean(process.env.MONGODB_URI);

/** TTL monitor interval used by the embedded store in tests (mongod runs it every 60 s) */
export const TEST_TTL_INTERVAL_MS = 200;

/**
 * Open the target for one test file. `durable`: the embedded store keeps its data in a temporary directory
 * (write-ahead log and all) instead of memory.
 */
export async function openTarget(label: string, options: { durable?: boolean } = {}): Promise<Target> {
  const dbName = `conf_${label}_${randomBytes(4).toString("hex")}`;
  let store: EmbeddedStore | undefined;
  let dbpath: string | undefined;
  let uri = process.env.MONGODB_URI;
  if (!uri) {
    dbpath = options.durable ? fs.mkdtempSync(path.join(os.tmpdir(), `vidensbank-${label}-`)) : undefined;
    store = await startEmbeddedStore({ memory: !dbpath, dbpath, ttlIntervalMs: TEST_TTL_INTERVAL_MS });
    uri = store.uri;
  }
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  return {
    uri,
    dbName,
    store,
    client,
    async close() {
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
        await store?.close();
        if (dbpath) fs.rmSync(dbpath, { recursive: true, force: true });
      }
    },
  };
}

/** Host and port of a mongodb://host:port/ URI (for raw sockets). */
export function hostPort(uri: string): { host: string; port: number } {
  const url = new URL(uri.replace(/^mongodb(\+srv)?:/, "http:"));
  return { host: url.hostname, port: Number(url.port || 27017) };
}

/** The server error `p` rejects with (the test fails when it resolves or rejects with something else). */
export async function failure(p: Promise<unknown>): Promise<MongoServerError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
}
