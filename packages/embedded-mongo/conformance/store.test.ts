/** startEmbeddedStore and the `npm run db` argument parser (embedded store only). */
import net from "node:net";
import { MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { startEmbeddedStore } from "../src";
import { parseDbArgs } from "../src/cli";
import { againstRealMongo } from "./harness";

describe.skipIf(againstRealMongo)("startEmbeddedStore", () => {
  it("should listen on 127.0.0.1 on an ephemeral port and give a mongodb:// URI with a fresh login", async () => {
    const store = await startEmbeddedStore({ memory: true });
    const other = await startEmbeddedStore({ memory: true });
    try {
      expect(store.port).toBeGreaterThan(0);
      expect(store.uri).toMatch(
        new RegExp(
          `^mongodb://vidensbank:[A-Za-z0-9_-]{24}@127\\.0\\.0\\.1:${store.port}/\\?authSource=admin&authMechanism=SCRAM-SHA-256$`,
        ),
      );
      // a random password per start
      expect(new URL(other.uri.replace("mongodb:", "http:")).password).not.toBe(
        new URL(store.uri.replace("mongodb:", "http:")).password,
      );
      const client = await MongoClient.connect(store.uri);
      await client.db("a").collection("b").insertOne({ x: 1 });
      expect(store.engine.find("a", "b", { filter: { x: 1 } })).toHaveLength(1);
      await client.close();
    } finally {
      await store.close();
      await other.close();
    }
  });

  it("should end open connections and free the port on close", async () => {
    const store = await startEmbeddedStore({ memory: true });
    const socket = net.connect(store.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await store.close();
    await closed;
    await store.close(); // idempotent
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(store.port, "127.0.0.1");
      probe.once("connect", () => {
        probe.destroy();
        resolve(false);
      });
      probe.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it("should reject when the port is taken", async () => {
    const first = await startEmbeddedStore({ memory: true });
    try {
      await expect(startEmbeddedStore({ memory: true, port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  it("should report unknown commands to its logger", async () => {
    const warnings: string[] = [];
    const store = await startEmbeddedStore({
      memory: true,
      logger: { info() {}, warn: (msg: string) => warnings.push(msg), error() {} },
    });
    const client = await MongoClient.connect(store.uri);
    try {
      await client
        .db("a")
        .command({ notACommand: 1 })
        .catch(() => {});
      expect(warnings.some((w) => w.includes("notACommand"))).toBe(true);
    } finally {
      await client.close();
      await store.close();
    }
  });
});

describe("parseDbArgs", () => {
  it.each([
    [[], { port: 27017, dbpath: "./data/db", memory: false, host: "127.0.0.1", fsync: false }],
    [["--port", "0", "--memory"], { port: 0, memory: true }],
    [["--port=4000", "--dbpath", "/tmp/x"], { port: 4000, dbpath: "/tmp/x", memory: false }],
    [["--host", "0.0.0.0"], { host: "0.0.0.0" }],
    [["--dbpath", "/tmp/x", "--fsync"], { dbpath: "/tmp/x", fsync: true }],
  ])("should parse %j", (argv, expected) => {
    expect(parseDbArgs(argv)).toMatchObject(expected);
  });

  it.each([
    [["--port", "70000"], /--port must be 0-65535/],
    [["--port"], /--port needs a value/],
    [["--memory", "--dbpath", "x"], /either --dbpath or --memory/],
    [["--wat"], /unknown option '--wat'/],
    [["--memory", "--fsync"], /--fsync needs a data directory/],
  ])("should reject %j", (argv, message) => {
    expect(() => parseDbArgs(argv)).toThrow(message);
  });
});
