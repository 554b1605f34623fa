import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ACTIVE_WINDOW_DAYS } from "./admin/stats/people-figures";
import { CHART_DAYS } from "./admin/stats.service";
import {
  ACTIVITY_RETENTION_MAX_DAYS,
  ACTIVITY_RETENTION_MIN_DAYS,
  ConfigError,
  DEFAULT_DATA_DIR,
  loadConfig,
} from "./config";

describe("loadConfig", () => {
  it("should select the embedded defaults when optional variables are missing", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      appUrl: "http://localhost:3000",
      dataDir: path.resolve("data"),
      mongodbUri: undefined,
      smtpUrl: undefined,
      allowedEmailDomains: ["minksekretariatet.dk"],
      adminEmail: "admin@minksekretariatet.dk",
      mailFrom: "Vidensbank <no-reply@minksekretariatet.dk>",
      nodeEnv: "development",
      knowledgeStaleDays: 365,
      activityRetentionDays: 365,
    });
  });

  it("should read ACTIVITY_RETENTION_DAYS: 0 keeps entries forever, at least the statistics' 30 days", () => {
    expect(loadConfig({ ACTIVITY_RETENTION_DAYS: "0" }).activityRetentionDays).toBe(0);
    expect(loadConfig({ ACTIVITY_RETENTION_DAYS: "30" }).activityRetentionDays).toBe(30);
    expect(loadConfig({ ACTIVITY_RETENTION_DAYS: "730" }).activityRetentionDays).toBe(730);
    expect(
      loadConfig({ ACTIVITY_RETENTION_DAYS: String(ACTIVITY_RETENTION_MAX_DAYS) }).activityRetentionDays,
    ).toBe(ACTIVITY_RETENTION_MAX_DAYS);
    // the statistics read this many days of sign-ins from the activity log
    expect(ACTIVITY_RETENTION_MIN_DAYS).toBeGreaterThanOrEqual(ACTIVE_WINDOW_DAYS);
    expect(ACTIVITY_RETENTION_MIN_DAYS).toBeGreaterThanOrEqual(CHART_DAYS);
    // the store's TTL in seconds fits its 32 bits
    expect(ACTIVITY_RETENTION_MAX_DAYS * 86_400).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it("should default DATA_DIR to the checkout's data/ from any directory, so server and CLI share it", () => {
    const checkoutData = fileURLToPath(new URL("../../data", import.meta.url));
    expect(DEFAULT_DATA_DIR).toBe(checkoutData);
    // npx vidensbank run inside cli/ or api/, or with npm's INIT_CWD somewhere else: still the checkout's data/
    expect(loadConfig({ INIT_CWD: "/srv/elsewhere" }).dataDir).toBe(checkoutData);
    expect(loadConfig({ INIT_CWD: fileURLToPath(new URL("../../cli", import.meta.url)) }).dataDir).toBe(
      checkoutData,
    );
    expect(loadConfig({ DATA_DIR: "" }).dataDir).toBe(checkoutData);
  });

  it("should resolve a relative DATA_DIR against the directory npm was run in", () => {
    // npm runs the server's script inside api/ but sets INIT_CWD to where the user ran it
    expect(loadConfig({ INIT_CWD: "/srv/vidensbank", DATA_DIR: "var/store" }).dataDir).toBe(
      path.resolve("/srv/vidensbank/var/store"),
    );
    expect(loadConfig({ INIT_CWD: "/srv/vidensbank", DATA_DIR: "/data" }).dataDir).toBe("/data");
  });

  it("should read and normalise set variables", () => {
    const c = loadConfig({
      PORT: "8080",
      APP_URL: "https://vidensbank.example.dk/",
      ALLOWED_EMAIL_DOMAINS: "MinkSekretariatet.dk, vidensbank.dk",
      MONGODB_URI: "mongodb://db:27017/vidensbank",
      ADMIN_EMAIL: "Boss@minksekretariatet.dk",
      NODE_ENV: "production",
      KNOWLEDGE_STALE_DAYS: "14",
      TRUST_PROXY: "1",
    });
    expect(c.trustProxyHops).toBe(1);
    expect(c.port).toBe(8080);
    expect(c.appUrl).toBe("https://vidensbank.example.dk");
    expect(c.allowedEmailDomains).toEqual(["minksekretariatet.dk", "vidensbank.dk"]);
    expect(c.adminEmail).toBe("boss@minksekretariatet.dk");
    expect(c.knowledgeStaleDays).toBe(14);
  });

  it("should read ALLOWED_ORIGINS as normalised origins, none by default", () => {
    expect(loadConfig({}).allowedOrigins).toEqual([]);
    expect(
      loadConfig({ ALLOWED_ORIGINS: " http://localhost:5173 , https://Partner.Example.dk:443/ " })
        .allowedOrigins,
    ).toEqual(["http://localhost:5173", "https://partner.example.dk"]);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["APP_URL", "localhost:3000"],
    ["MONGODB_URI", "http://db"],
    ["SMTP_URL", "mail.example.dk"],
    ["JWT_SECRET", "too-short"],
    ["ALLOWED_EMAIL_DOMAINS", "@minksekretariatet.dk"],
    ["ALLOWED_ORIGINS", "vidensbank.example.dk"],
    ["ALLOWED_ORIGINS", "*"],
    ["ALLOWED_ORIGINS", "null"],
    ["ALLOWED_ORIGINS", "https://vidensbank.example.dk/app"],
    ["ALLOWED_ORIGINS", "https://vidensbank.example.dk?x=1"],
    ["ALLOWED_ORIGINS", "https://user:pw@vidensbank.example.dk"],
    ["ALLOWED_ORIGINS", "ws://vidensbank.example.dk"],
    ["ALLOWED_ORIGINS", "https://a.example.dk,,https://b.example.dk"],
    ["ADMIN_EMAIL", "admin"],
    ["ADMIN_PASSWORD", "123"],
    ["OPENAI_BASE_URL", "not a url"],
    ["NOTION_API_BASE_URL", "ftp://x"],
    ["KNOWLEDGE_STALE_DAYS", "-1"],
    ["TRUST_PROXY", "yes"],
    ["ACTIVITY_RETENTION_DAYS", "29"],
    ["ACTIVITY_RETENTION_DAYS", "-1"],
    ["ACTIVITY_RETENTION_DAYS", "1.5"],
    ["ACTIVITY_RETENTION_DAYS", "forever"],
    ["ACTIVITY_RETENTION_DAYS", "99999"],
    ["LOG_LEVEL", "loud"],
    ["NODE_ENV", "staging"],
  ])("should stop with one line naming %s when it is malformed (%s)", (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(name);
    expect((error as Error).message).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
    expect((error as Error).message).not.toContain("\n");
  });
});
