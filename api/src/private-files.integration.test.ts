/**
 * Files the app writes under DATA_DIR are for its own user only (files 0600, folders 0700): outbox mails hold
 * live reset links, store.json the store's address, jwt-secret the signing key. The embedded store's own db/
 * files are not covered here.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadJwtSecret } from "./auth/tokens";
import { loadConfig } from "./config";
import { openDatabase, storeFilePath } from "./db/connection";
import { outboxDir } from "./mail/mailer";
import { startTestApp, type TestApp } from "./testing/app";
import { buildUser, rest } from "./testing/client";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-modes-"));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

/** Every path under dir (dir included, db/ excluded) that grants group or other any permission. */
function sharedPaths(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    if (modeOf(p) & 0o077) found.push(`${path.relative(dir, p) || "."} ${modeOf(p).toString(8)}`);
    if (fs.statSync(p).isDirectory()) {
      for (const name of fs.readdirSync(p)) {
        if (p === dir && name === "db") continue;
        walk(path.join(p, name));
      }
    }
  };
  walk(dir);
  return found;
}

/** Registration and a reset request: two mails with live links. */
async function sendMails(app: TestApp): Promise<void> {
  const user = buildUser();
  expect((await rest(app, "POST", "/api/auth/register", { body: user })).status).toBe(201);
  await app.mail.waitFor(user.email);
  await rest(app, "POST", "/api/auth/forgot-password", { body: { email: app.admin.email } });
  await app.mail.waitFor(app.admin.email);
}

describe("the outbox", () => {
  describe("in a new DATA_DIR", () => {
    const dataDir = path.join(root, "fresh", "data");
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ mail: "outbox", config: { dataDir } });
    });
    afterAll(async () => {
      await app?.close();
    });

    it("should write mails, their folder and DATA_DIR itself owner-only", async () => {
      await sendMails(app);
      await sendMails(app);
      const mails = fs.readdirSync(outboxDir(dataDir)).filter((f) => f.endsWith(".eml"));
      expect(mails.length).toBe(4);
      expect(sharedPaths(dataDir)).toEqual([]);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(outboxDir(dataDir))).toBe(0o700);
      for (const f of mails) expect(modeOf(path.join(outboxDir(dataDir), f)), f).toBe(0o600);
      // DATA_DIR's parent is not the app's: created as usual
      expect(modeOf(path.dirname(dataDir)) & 0o055).not.toBe(0);
    });
  });

  describe("left readable by an older version", () => {
    const dataDir = path.join(root, "old");
    const oldMail = path.join(outboxDir(dataDir), "2024-01-01T00-00-00-000Z-reset-password-abcdef.eml");
    let app: TestApp;
    beforeAll(async () => {
      fs.mkdirSync(outboxDir(dataDir), { recursive: true, mode: 0o755 });
      fs.chmodSync(dataDir, 0o755);
      fs.chmodSync(outboxDir(dataDir), 0o755);
      fs.writeFileSync(oldMail, "To: a@minksekretariatet.dk\n\nhttp://x/reset-password?token=abc", {
        mode: 0o644,
      });
      fs.chmodSync(oldMail, 0o644);
      app = await startTestApp({ mail: "outbox", config: { dataDir } });
    });
    afterAll(async () => {
      await app?.close();
    });

    it("should tighten the outbox folder and its old mails at start", () => {
      expect(modeOf(outboxDir(dataDir))).toBe(0o700);
      expect(modeOf(oldMail)).toBe(0o600);
    });

    it("should write new mails owner-only beside them", async () => {
      await sendMails(app);
      // an existing DATA_DIR is the operator's: its own mode is left alone, everything the app wrote is private
      expect(sharedPaths(dataDir)).toEqual([". 755"]);
    });
  });
});

describe("store.json", () => {
  const config = (dataDir: string) =>
    loadConfig(
      { NODE_ENV: "test" },
      { dataDir, jwtSecret: "x".repeat(32), adminPassword: "admin-test-password" },
    );

  it("should be written owner-only in a DATA_DIR created owner-only", async () => {
    const dataDir = path.join(root, "store-new");
    const db = await openDatabase(config(dataDir), { role: "server" });
    try {
      expect(modeOf(storeFilePath(dataDir))).toBe(0o600);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(sharedPaths(dataDir)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("should replace a world-readable store.json left by an older version with an owner-only one", async () => {
    const dataDir = path.join(root, "store-old");
    fs.mkdirSync(dataDir, { mode: 0o700 });
    fs.writeFileSync(storeFilePath(dataDir), JSON.stringify({ uri: "mongodb://127.0.0.1:1/", pid: 1 }), {
      mode: 0o644,
    });
    fs.chmodSync(storeFilePath(dataDir), 0o644);
    const db = await openDatabase(config(dataDir), { role: "server" });
    try {
      expect(modeOf(storeFilePath(dataDir))).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(storeFilePath(dataDir), "utf8"))).toEqual({
        uri: db.uri,
        pid: process.pid,
      });
      expect(fs.readdirSync(dataDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe("the generated JWT secret", () => {
  it("should create DATA_DIR owner-only and the secret 0600", () => {
    const dataDir = path.join(root, "jwt", "data");
    loadJwtSecret({ dataDir, jwtSecret: undefined });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "jwt-secret"))).toBe(0o600);
  });
});
