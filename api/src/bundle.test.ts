/**
 * The bundled server (api/scripts/bundle.mjs, what `npm start -w api` runs; npm packages bundled too): paths
 * worked out from import.meta.url (DATA_DIR's default, the sample content, the web build, schema.graphql) and the
 * search index's format key (a hash of api/src/search) come out the same as when the sources run through tsx; and
 * the bundle started by plain node on a store in its own process imports the sample content and serves REST,
 * GraphQL and a websocket subscription (mongoose, Apollo, type-graphql, graphql-ws, express from the bundle).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withDatabase } from "@vidensbank/embedded-mongo/uri";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_WEB_DIST } from "./app";
import { gqlOk, wsClient } from "./chat/chat.test-helpers";
import { DEFAULT_DATA_DIR } from "./config";
import { SCHEMA_FILE } from "./graphql/schema";
import { SAMPLE_CONTENT_DIR } from "./knowledge/knowledge.import";
import { indexFormatKey } from "./search/search.persist";
import { rest } from "./testing/client";
import { type FakeNotion, startFakeNotion } from "./testing/fake-notion";
import { type Child, freePort, startStoreProcess } from "./testing/processes";

const API = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = fs.mkdtempSync(path.join(API, "dist-test-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("bundled server", () => {
  it("should work out the same paths and index format key as the sources do", () => {
    const entry = path.join(dir, "entry.ts");
    fs.writeFileSync(
      entry,
      [
        'import { DEFAULT_WEB_DIST } from "../src/app";',
        'import { DEFAULT_DATA_DIR } from "../src/config";',
        'import { SCHEMA_FILE } from "../src/graphql/schema";',
        'import { SAMPLE_CONTENT_DIR } from "../src/knowledge/knowledge.import";',
        'import { indexFormatKey } from "../src/search/search.persist";',
        "const key = indexFormatKey();",
        "console.log(JSON.stringify({ DEFAULT_WEB_DIST, DEFAULT_DATA_DIR, SCHEMA_FILE, SAMPLE_CONTENT_DIR, key }));",
        "process.exit(0);",
      ].join("\n"),
    );
    const out = path.join(dir, "nested", "bundle.mjs"); // another depth than any source file
    execFileSync(process.execPath, [path.join(API, "scripts/bundle.mjs"), entry, out]);
    // run by plain node, as `npm start -w api` runs the server's bundle
    const printed = execFileSync(process.execPath, [out], { env: { ...process.env, LOG_LEVEL: "silent" } });
    expect(JSON.parse(printed.toString().trim().split("\n").pop() ?? "")).toEqual({
      DEFAULT_WEB_DIST,
      DEFAULT_DATA_DIR,
      SCHEMA_FILE,
      SAMPLE_CONTENT_DIR,
      key: indexFormatKey(),
    });
  }, 120_000); // bundling every npm package takes a few seconds, several times that on a busy machine
});

async function until<T>(ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("bundled server started by plain node", () => {
  let store: Child | undefined;
  let notion: FakeNotion | undefined;
  let server: ReturnType<typeof spawn> | undefined;
  const NOTION_TOKEN = "secret_vidensbank_bundle_0123456789";
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server?.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    await store?.stop();
    await notion?.close();
  }, 30_000);

  it("should import the sample content and serve REST, GraphQL and a websocket subscription", async () => {
    const out = path.join(dir, "server", "main.mjs");
    execFileSync(process.execPath, [
      path.join(API, "scripts/bundle.mjs"),
      path.join(API, "src/main.ts"),
      out,
    ]);
    store = await startStoreProcess();
    notion = await startFakeNotion({ tokens: [NOTION_TOKEN] });
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(dir, "data-"));
    const password = "bundled-admin-password";
    let stderr = "";
    server = spawn(process.execPath, ["--enable-source-maps", out], {
      cwd: API,
      env: {
        ...process.env,
        MONGODB_URI: withDatabase(store.first, "vidensbank"),
        DATA_DIR: dataDir,
        PORT: String(port),
        ADMIN_PASSWORD: password,
        LOG_LEVEL: "warn",
        NOTION_API_BASE_URL: notion.url,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    server.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4_000);
    });
    const app = {
      url: `http://127.0.0.1:${port}`,
      graphqlUrl: `http://127.0.0.1:${port}/graphql`,
      wsUrl: `ws://127.0.0.1:${port}/graphql`,
    };
    await until(60_000, async () => {
      if (server?.exitCode !== null) throw new Error(`the bundled server exited: ${stderr}`);
      return (await fetch(`${app.url}/healthz`)).ok || undefined;
    }).catch((err) => {
      throw new Error(`${err instanceof Error ? err.message : err}: ${stderr}`);
    });

    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: "admin@minksekretariatet.dk", password },
    });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    // REST: the sample content imported at the first start
    const list = await rest(app, "GET", "/api/knowledge", { token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain("Klager over afgørelser og klagefrist");
    // GraphQL: search through Apollo and type-graphql from the bundle
    const { searchKnowledge } = await gqlOk<{
      searchKnowledge: { total: number; hits: Array<{ article: { title: string } }> };
    }>(app, 'query { searchKnowledge(query: "klagefrist") { total hits { article { title } } } }', {}, token);
    expect(searchKnowledge.total).toBeGreaterThan(0);
    expect(searchKnowledge.hits.map((h) => h.article.title)).toContain(
      "Klager over afgørelser og klagefrist",
    );
    // a websocket subscription (graphql-ws and ws from the bundle)
    const client = wsClient(app, token);
    try {
      const received = new Promise<unknown>((resolve, reject) => {
        client.subscribe(
          { query: "subscription { preferencesChanged { theme } }" },
          { next: resolve, error: reject, complete: () => reject(new Error("completed")) },
        );
      });
      const theme = await until(10_000, async () => {
        await gqlOk(app, "mutation { updatePreferences(input: { theme: dark }) { theme } }", {}, token);
        await gqlOk(app, "mutation { updatePreferences(input: { theme: light }) { theme } }", {}, token);
        return Promise.race([received, new Promise<undefined>((r) => setTimeout(r, 300))]);
      });
      expect(JSON.stringify(theme)).toMatch(/"theme":"(dark|light)"/);
    } finally {
      await client.dispose();
    }
    // the Notion SDK, a CommonJS package imported at its first use (a dynamic import in the bundle has only
    // `default`: the connect failed as "Notion svarer ikke" in every bundled server before stop 41)
    const connected = await rest(app, "POST", "/api/admin/notion/token", {
      token,
      body: { token: NOTION_TOKEN },
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body).toMatchObject({ connected: true });
  }, 120_000);
});
