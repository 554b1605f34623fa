/**
 * startTestApp(): the whole server on an ephemeral port over a fresh in-memory embedded store, with e-mail
 * going to a real SMTP server in the test (default) or to the outbox folder. Used by the API integration
 * tests and the web engineer's browser tests.
 */

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { createApp } from "../app";
import { type AppConfig, loadConfig, type RateLimitConfig } from "../config";
import { openDatabase } from "../db/connection";
import { outboxDir } from "../mail/mailer";
import { createServices, type Services, type ServicesOptions, sharedStore } from "../services";
import { type WarmupReport, warmUp } from "../warmup";
import { type CapturedMail, type MailCapture, parseMail, startSmtpCapture } from "./smtp";

export interface TestAppOptions {
  /** config values to override (dataDir defaults to a fresh temp dir) */
  config?: Partial<AppConfig>;
  /** rate limits to override; unspecified ones are generous so tests do not trip them by accident */
  rateLimits?: Partial<RateLimitConfig>;
  /** "smtp": a real SMTP server in the test (default); "outbox": .eml files in DATA_DIR/outbox */
  mail?: "smtp" | "outbox";
  /** the test SMTP server accepts each message this many ms late (a slow mail server) */
  smtpDelayMs?: number;
  /** a built web app directory to serve (default: none → the placeholder page) */
  webDist?: string;
  /** built-in admin password (default "admin-test-password") */
  adminPassword?: string;
  /** Notion client settings (a faster request queue, shorter backoff against the fake Notion server) */
  notion?: ServicesOptions["notion"];
}

export interface TestApp {
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  mail: MailCapture;
  config: AppConfig;
  services: Services;
  admin: { email: string; password: string };
  /** the store's mongodb:// URI, login included (the embedded store's or MONGODB_URI) */
  dbUri: string;
  /** what the start-up warm-up did (config.warmup); null when off */
  warmup: WarmupReport | null;
  /** the embedded store's TTL monitor, now: removes expired documents, returns how many (0 on MONGODB_URI) */
  sweepExpired(): Promise<number>;
  close(): Promise<void>;
}

const GENEROUS = { points: 10_000, duration: 60 };

function outboxCapture(dir: string): MailCapture {
  const taken = new Set<string>();
  const read = (): Array<CapturedMail & { file: string }> => {
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".eml"))
      .sort()
      .map((f) => {
        const raw = fs.readFileSync(path.join(dir, f), "utf8");
        const to = (/^To: (.*)$/im.exec(raw)?.[1] ?? "").toLowerCase().match(/[^\s<>,]+@[^\s<>,]+/g) ?? [];
        return { ...parseMail(raw, { from: "", to }), file: f };
      });
  };
  return {
    url: "",
    get messages() {
      return read();
    },
    async waitFor(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = read().find((m) => !taken.has(m.file) && m.to.includes(to.toLowerCase()));
        if (found) {
          taken.add(found.file);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${dir} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: async () => undefined,
  };
}

/**
 * Start the whole server. One at a time per process (mongoose has one default connection): close the
 * previous one before starting the next. Vitest runs each test file in its own process.
 */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  if (mongoose.connection.readyState !== 0) {
    throw new Error("startTestApp: another test app is still running in this process; close it first");
  }
  const dataDir = opts.config?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-test-"));
  const ownDataDir = !opts.config?.dataDir;
  const smtp =
    (opts.mail ?? "smtp") === "smtp" ? await startSmtpCapture({ delayMs: opts.smtpDelayMs }) : null;
  const adminPassword = opts.adminPassword ?? "admin-test-password";
  const rateLimits: RateLimitConfig = {
    loginPerIp: GENEROUS,
    loginPerAccountIp: GENEROUS,
    loginPerAccount: GENEROUS,
    registerPerIp: GENEROUS,
    mailPerAddressIp: GENEROUS,
    mailPerAddress: GENEROUS,
    mailPerIp: GENEROUS,
    passwordCheckPerUser: GENEROUS,
    tokenPerIp: GENEROUS,
    ...opts.rateLimits,
  };
  const config = loadConfig(
    { NODE_ENV: "test" },
    {
      dataDir,
      jwtSecret: randomBytes(32).toString("hex"),
      smtpUrl: smtp?.url,
      adminPassword,
      rateLimits,
      ...opts.config,
    },
  );
  const db = await openDatabase(config, { memory: !config.mongodbUri });
  // an external store (config.mongodbUri, e.g. one run with `npm run db`) may be shared by several apps
  const services = createServices(config, { notion: opts.notion, shared: await sharedStore(config) });
  await services.ready();
  await services.users.ensureBuiltinAdmin();
  await services.knowledge.ensureSampleContent();
  const app = await createApp({ services, webDist: opts.webDist ?? path.join(dataDir, "no-web-dist") });
  // off unless asked for (config.warmup; off is NODE_ENV=test's default); any other mode warms before listening,
  // so a test or bench gets the app warm when it gets its URL
  const warmup = config.warmup !== "off" ? await warmUp(app.apollo, services) : null;
  const port = await app.listen(0, "127.0.0.1");
  const url = `http://127.0.0.1:${port}`;
  config.appUrl = url; // mail links point at this server
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    mail: smtp ?? outboxCapture(outboxDir(dataDir)),
    config,
    services,
    admin: { email: config.adminEmail, password: adminPassword },
    dbUri: db.uri,
    warmup,
    sweepExpired: async () => (await db.sweepExpired?.()) ?? 0,
    async close() {
      await app.close();
      await services.close();
      await smtp?.close();
      await db.close();
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
