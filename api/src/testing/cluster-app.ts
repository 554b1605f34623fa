/**
 * One app process of the several-process tests (events/cluster.integration.test.ts): startTestApp() on the
 * store at MONGODB_URI (run in its own process), with the JWT secret, admin password and fake model given in
 * the environment, so tokens from one process work on the other. Prints {"url"} on its first stdout line;
 * SIGTERM closes it.
 *
 * Environment: MONGODB_URI, JWT_SECRET, ADMIN_PASSWORD, OPENAI_BASE_URL (optional), RATE_LIMITS (JSON,
 * optional), CHAT_LIMITS (JSON, optional: e.g. a short staleAfterMs for the crash tests), NOTION_API_BASE_URL
 * (optional: a fake Notion server).
 */
import type { ChatLimits } from "../chat/chat.limits";
import type { RateLimitConfig } from "../config";
import { startTestApp } from "./app";

const env = process.env;
const app = await startTestApp({
  mail: "outbox",
  adminPassword: env.ADMIN_PASSWORD,
  rateLimits: env.RATE_LIMITS ? (JSON.parse(env.RATE_LIMITS) as Partial<RateLimitConfig>) : undefined,
  config: {
    mongodbUri: env.MONGODB_URI,
    jwtSecret: env.JWT_SECRET,
    warmup: env.WARMUP === "1" ? "first" : "off",
    ...(env.CHAT_LIMITS ? { chatLimits: JSON.parse(env.CHAT_LIMITS) as Partial<ChatLimits> } : {}),
    ...(env.NOTION_API_BASE_URL ? { notionApiBaseUrl: env.NOTION_API_BASE_URL } : {}),
    ...(env.OPENAI_BASE_URL ? { openaiBaseUrl: env.OPENAI_BASE_URL, openaiApiKey: "test-key" } : {}),
  },
});
process.stdout.write(`${JSON.stringify({ url: app.url, pid: process.pid, warmup: app.warmup })}\n`);

let closing = false;
process.on("SIGTERM", () => {
  if (closing) return;
  closing = true;
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
