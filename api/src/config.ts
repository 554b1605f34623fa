/**
 * The one place that reads process.env. Every variable is validated once at start-up; a malformed one stops
 * start-up with one clear line naming the variable. Missing optional ones select the embedded default.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/**
 * DATA_DIR when unset: the checkout's `data/` folder, wherever the server, `npx vidensbank` or a script was
 * started from, so they all find the same store (the CLI run from `cli/` or `api/` no longer starts an empty one).
 */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL("../../data", import.meta.url));

export interface RateLimitRule {
  /** attempts allowed in the window */
  points: number;
  /** window length in seconds */
  duration: number;
}

/**
 * Attempt limits (auth/rate-limits.ts). The login and mail limits come in three so that a stranger cannot lock
 * a user out (auth/attempt-limits.ts): one per (account, client IP) that a guesser from one address meets, a much
 * higher ceiling per account over all addresses (a botnet's guesses, a flooded mailbox), and one per IP over
 * all accounts (password spraying).
 */
export interface RateLimitConfig {
  /** login attempts from one address over all accounts (spraying) */
  loginPerIp: RateLimitRule;
  /** login attempts at one account from one address: the limit a guesser meets */
  loginPerAccountIp: RateLimitRule;
  /** login attempts at one account over all addresses (the ceiling; an address the account signed in from before is exempt) */
  loginPerAccount: RateLimitRule;
  registerPerIp: RateLimitRule;
  /** link mails of one kind (reset or verification) to one address asked for from one client address */
  mailPerAddressIp: RateLimitRule;
  /** link mails of one kind to one address over all client addresses (the ceiling: no flooded mailbox) */
  mailPerAddress: RateLimitRule;
  /** link mails asked for from one client address over all addresses */
  mailPerIp: RateLimitRule;
  /** current-password checks when changing the password, per user */
  passwordCheckPerUser: RateLimitRule;
  /** e-mailed link tokens tried (verify-email, reset-password), per IP address */
  tokenPerIp: RateLimitRule;
}

export interface AppConfig {
  port: number;
  appUrl: string;
  dataDir: string;
  /** undefined = start the embedded store in dataDir/db */
  mongodbUri?: string;
  /** undefined = a secret generated once and kept in dataDir */
  jwtSecret?: string;
  allowedEmailDomains: string[];
  adminEmail: string;
  adminPassword?: string;
  /** undefined = write .eml files to dataDir/outbox */
  smtpUrl?: string;
  mailFrom: string;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  openaiModel?: string;
  openaiEmbeddingModel?: string;
  notionToken?: string;
  notionClientId?: string;
  notionClientSecret?: string;
  notionApiBaseUrl?: string;
  /** key material for the saved Notion token (AES-256-GCM); undefined = derived from the JWT secret */
  notionEncryptionKey?: string;
  /** NOTION_SYNC_INTERVAL: seconds between scheduled syncs (default 600; 0 = no schedule; test default 0) */
  notionSyncIntervalSeconds: number;
  envBadgeUsername?: string;
  knowledgeStaleDays: number;
  /** ACTIVITY_RETENTION_DAYS: activity entries older than this are removed by the store (0 = kept forever) */
  activityRetentionDays: number;
  /** chat limits (in-flight answers per user, LLM timeouts); unset fields use the chat module's defaults */
  chatLimits?: Partial<import("./chat/chat.limits").ChatLimits>;
  logLevel: string;
  nodeEnv: "development" | "production" | "test";
  /** reverse-proxy hops in front of the app whose X-Forwarded-For is trusted (0 = none; client IPs for rate limits) */
  trustProxyHops: number;
  /** how long a login lasts (seconds) */
  sessionTtlSeconds: number;
  /** how often open graphql-ws connections re-check their session (catches changes by other processes) */
  wsRecheckMs: number;
  /** origins besides APP_URL's whose pages may open a cookie-authenticated websocket (ALLOWED_ORIGINS) */
  allowedOrigins: string[];
  rateLimits: RateLimitConfig;
  /**
   * WARMUP (warmup.ts): "background" (1, the default) listens at once and warms the hot paths after, /readyz
   * answering 503 "warming" until done; "first" (first) warms before listening, for balancers that check no
   * readiness (node:cluster workers, nginx upstreams); "off" (0; the default under NODE_ENV=test)
   */
  warmup: WarmupMode;
}

export type WarmupMode = "background" | "first" | "off";
const WARMUP_MODES: Record<string, WarmupMode> = { "1": "background", first: "first", "0": "off" };

/** Thrown for a malformed variable; message is the one line printed at start-up. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid environment variable ${variable}: ${detail}`);
    this.name = "ConfigError";
  }
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const optionalString = z
  .string()
  .transform((s) => s.trim())
  .optional()
  .transform((s) => (s ? s : undefined));

const url = (protocols: string[]) =>
  optionalString.refine(
    (s) => {
      if (s === undefined) return true;
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL (${protocols.join(" or ")})` },
  );

const port = optionalString.refine(
  (s) => s === undefined || (/^\d+$/.test(s) && Number(s) >= 0 && Number(s) <= 65535),
  { message: "must be a port number 0-65535" },
);

const email = optionalString.refine((s) => s === undefined || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s), {
  message: "must be an e-mail address",
});

const domainList = optionalString.refine(
  (s) =>
    s === undefined ||
    s
      .split(",")
      .map((d) => d.trim())
      .every((d) => /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(d)),
  { message: "must be a comma-separated list of domains like minksekretariatet.dk" },
);

/** "https://host[:port]": a scheme and a host, nothing else (no path, query, credentials or wildcard) */
const isOrigin = (o: string) => {
  try {
    const u = new URL(o);
    return (
      (u.protocol === "http:" || u.protocol === "https:") &&
      u.pathname === "/" &&
      !u.search &&
      !u.hash &&
      !u.username &&
      !u.password
    );
  } catch {
    return false;
  }
};

const originList = optionalString.refine(
  (s) =>
    s === undefined ||
    s
      .split(",")
      .map((o) => o.trim())
      .every(isOrigin),
  { message: "must be a comma-separated list of origins like https://vidensbank.example.dk" },
);

const positiveInt = optionalString.refine((s) => s === undefined || /^[1-9]\d*$/.test(s), {
  message: "must be a positive whole number",
});

/**
 * ACTIVITY_RETENTION_DAYS bounds: the admin statistics count sign-ins of the last 30 days from the activity log
 * (admin/stats/people-figures.ts, ACTIVE_WINDOW_DAYS), so a shorter retention would make them wrong; the store
 * keeps a TTL in seconds as a 32-bit number (mongod refuses more than 2^31 - 1 s, about 68 years).
 */
export const ACTIVITY_RETENTION_MIN_DAYS = 30;
export const ACTIVITY_RETENTION_MAX_DAYS = Math.floor((2 ** 31 - 1) / 86_400);

const schema = z.object({
  PORT: port,
  APP_URL: url(["http:", "https:"]),
  DATA_DIR: optionalString,
  MONGODB_URI: url(["mongodb:", "mongodb+srv:"]),
  JWT_SECRET: optionalString.refine((s) => s === undefined || s.length >= 32, {
    message: "must be at least 32 characters",
  }),
  ALLOWED_EMAIL_DOMAINS: domainList,
  ALLOWED_ORIGINS: originList,
  ADMIN_EMAIL: email,
  ADMIN_PASSWORD: optionalString.refine((s) => s === undefined || s.length >= 6, {
    message: "must be at least 6 characters",
  }),
  SMTP_URL: url(["smtp:", "smtps:"]),
  MAIL_FROM: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: url(["http:", "https:"]),
  OPENAI_MODEL: optionalString,
  OPENAI_EMBEDDING_MODEL: optionalString,
  NOTION_TOKEN: optionalString,
  NOTION_CLIENT_ID: optionalString,
  NOTION_CLIENT_SECRET: optionalString,
  NOTION_API_BASE_URL: url(["http:", "https:"]),
  NOTION_ENCRYPTION_KEY: optionalString,
  NOTION_SYNC_INTERVAL: optionalString.refine((s) => s === undefined || /^\d+$/.test(s), {
    message: "must be a whole number of seconds (0 turns the schedule off)",
  }),
  ENV_BADGE_USERNAME: optionalString,
  KNOWLEDGE_STALE_DAYS: positiveInt,
  ACTIVITY_RETENTION_DAYS: optionalString.refine(
    (s) =>
      s === undefined ||
      (/^\d{1,5}$/.test(s) &&
        (Number(s) === 0 ||
          (Number(s) >= ACTIVITY_RETENTION_MIN_DAYS && Number(s) <= ACTIVITY_RETENTION_MAX_DAYS))),
    {
      message:
        `must be a whole number of days from ${ACTIVITY_RETENTION_MIN_DAYS} (the statistics read the last ` +
        `${ACTIVITY_RETENTION_MIN_DAYS} days of sign-ins) to ${ACTIVITY_RETENTION_MAX_DAYS}, or 0 to keep entries forever`,
    },
  ),
  TRUST_PROXY: optionalString.refine((s) => s === undefined || /^\d{1,2}$/.test(s), {
    message: "must be the number of reverse proxies in front of the app (0 for none)",
  }),
  LOG_LEVEL: optionalString.refine((s) => s === undefined || (LOG_LEVELS as readonly string[]).includes(s), {
    message: `must be one of ${LOG_LEVELS.join(", ")}`,
  }),
  WARMUP: optionalString.refine((s) => s === undefined || s in WARMUP_MODES, {
    message:
      "must be 1 (warm the hot paths after listening; /readyz waits), first (before listening) or 0 (off)",
  }),
  NODE_ENV: optionalString.refine(
    (s) => s === undefined || ["development", "production", "test"].includes(s),
    {
      message: "must be development, production or test",
    },
  ),
});

export type Env = Record<string, string | undefined>;

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  loginPerIp: { points: 50, duration: 15 * 60 },
  loginPerAccountIp: { points: 10, duration: 15 * 60 },
  // a botnet gets 100 guesses an hour at one account wherever it guesses from (the old limit, 10 per 15 min
  // from anywhere, let one address have 40); the owner is not stopped by it from an address they signed in from
  loginPerAccount: { points: 100, duration: 60 * 60 },
  registerPerIp: { points: 20, duration: 60 * 60 },
  mailPerAddressIp: { points: 5, duration: 60 * 60 },
  mailPerAddress: { points: 10, duration: 60 * 60 },
  mailPerIp: { points: 30, duration: 60 * 60 },
  passwordCheckPerUser: { points: 5, duration: 15 * 60 },
  tokenPerIp: { points: 30, duration: 15 * 60 },
};

/**
 * Parse and validate the environment. Throws ConfigError naming the first malformed variable.
 * `overrides` (tests, CLI) win over the environment.
 */
export function loadConfig(env: Env = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue.path[0]), issue.message);
  }
  const e = parsed.data;
  const nodeEnv = (e.NODE_ENV ?? "development") as AppConfig["nodeEnv"];
  const portNumber = e.PORT === undefined ? 3000 : Number(e.PORT);
  const config: AppConfig = {
    port: portNumber,
    appUrl: (e.APP_URL ?? `http://localhost:${portNumber}`).replace(/\/+$/, ""),
    // unset: the checkout's data/ (server and CLI share it from any directory); a relative DATA_DIR is the
    // user's path: resolved against where they ran npm (INIT_CWD; npm runs workspace scripts inside api/)
    dataDir: e.DATA_DIR ? path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR) : DEFAULT_DATA_DIR,
    mongodbUri: e.MONGODB_URI,
    jwtSecret: e.JWT_SECRET,
    allowedEmailDomains: (e.ALLOWED_EMAIL_DOMAINS ?? "minksekretariatet.dk")
      .split(",")
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
    adminEmail: (e.ADMIN_EMAIL ?? "admin@minksekretariatet.dk").toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? "Vidensbank <no-reply@minksekretariatet.dk>",
    openaiApiKey: e.OPENAI_API_KEY,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    openaiModel: e.OPENAI_MODEL,
    openaiEmbeddingModel: e.OPENAI_EMBEDDING_MODEL,
    notionToken: e.NOTION_TOKEN,
    notionClientId: e.NOTION_CLIENT_ID,
    notionClientSecret: e.NOTION_CLIENT_SECRET,
    notionApiBaseUrl: e.NOTION_API_BASE_URL,
    notionEncryptionKey: e.NOTION_ENCRYPTION_KEY,
    // tests start no schedule unless they ask for one
    notionSyncIntervalSeconds:
      e.NOTION_SYNC_INTERVAL === undefined ? (nodeEnv === "test" ? 0 : 600) : Number(e.NOTION_SYNC_INTERVAL),
    envBadgeUsername: e.ENV_BADGE_USERNAME,
    knowledgeStaleDays: e.KNOWLEDGE_STALE_DAYS === undefined ? 365 : Number(e.KNOWLEDGE_STALE_DAYS),
    activityRetentionDays: e.ACTIVITY_RETENTION_DAYS === undefined ? 365 : Number(e.ACTIVITY_RETENTION_DAYS),
    logLevel: e.LOG_LEVEL ?? (nodeEnv === "test" ? "silent" : "info"),
    nodeEnv,
    trustProxyHops: e.TRUST_PROXY === undefined ? 0 : Number(e.TRUST_PROXY),
    sessionTtlSeconds: 7 * 24 * 60 * 60,
    wsRecheckMs: 60_000,
    allowedOrigins: (e.ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => new URL(o).origin),
    rateLimits: DEFAULT_RATE_LIMITS,
    warmup: e.WARMUP === undefined ? (nodeEnv === "test" ? "off" : "background") : WARMUP_MODES[e.WARMUP],
  };
  return { ...config, ...overrides };
}

/** Logger settings, read without validating the rest (the logger exists before config is loaded). */
export function readLogSettings(env: Env = process.env): { level: string; pretty: boolean } {
  const nodeEnv = env.NODE_ENV ?? "development";
  const level =
    env.LOG_LEVEL && (LOG_LEVELS as readonly string[]).includes(env.LOG_LEVEL) ? env.LOG_LEVEL : undefined;
  return {
    level: level ?? (nodeEnv === "test" ? "silent" : "info"),
    pretty: nodeEnv === "development",
  };
}
