/**
 * The server's start, in the order main.ts runs it (and bench/search-cold-start.child.ts measures it): the
 * persisted search index is read from DATA_DIR while the database connects (file I/O and checksum in the thread
 * pool, parsing between the connection's round trips), services and the built-in admin, then the knowledge
 * catalog (sample content, search index) while the HTTP app is built; listening once both are ready, so the
 * first request is answered from a loaded index. Then the hot paths are warmed (warmup.ts), so the first
 * users are not served by cold code: by default after listening, /readyz answering 503 "warming" until done (the
 * first answer is not delayed; a balancer that checks readiness waits); WARMUP=first before listening (balancers
 * that check no readiness: node:cluster workers, nginx); WARMUP=0 not at all. Each step leaves a performance mark `start:<step>` with the
 * process's CPU time so far (detail.cpuMs) for a profiler or the bench.
 */
import { createApp, type RunningApp } from "./app";
import type { AppConfig } from "./config";
import { type Database, openDatabase } from "./db/connection";
import { prefetchPersistedIndex, searchIndexFile } from "./knowledge/knowledge.persisted-index";
import { logger } from "./logger";
import { createServices, type Services, sharedStore } from "./services";
import { type WarmupReport, warmUp } from "./warmup";

export interface StartedServer {
  db: Database;
  services: Services;
  app: RunningApp;
  port: number;
  admin: Awaited<ReturnType<Services["users"]["ensureBuiltinAdmin"]>>;
  /** resolves with what the warm-up did (at once with WARMUP=first; null when WARMUP=0) */
  warmed: Promise<WarmupReport | null>;
}

function mark(step: string): void {
  const u = process.cpuUsage();
  performance.mark(`start:${step}`, { detail: { cpuMs: (u.user + u.system) / 1000 } });
}

export async function startServer(
  config: AppConfig,
  listen: { port: number; host?: string } = { port: config.port },
): Promise<StartedServer> {
  mark("modules loaded");
  void prefetchPersistedIndex(searchIndexFile(config.dataDir));
  const db = await openDatabase(config);
  logger.info({ mode: db.mode }, "database connected");
  mark("database connected");
  const shared = await sharedStore(config);
  const services = createServices(config, { shared });
  await services.ready();
  if (shared)
    logger.info("store shared with other API processes: events and caches follow its change streams");
  const admin = await services.users.ensureBuiltinAdmin();
  mark("services ready, built-in admin");
  const [app] = await Promise.all([
    createApp({ services }),
    services.knowledge.ensureSampleContent().then(() => mark("knowledge catalog + search index loaded")),
  ]);
  services.notion.startSchedule();
  mark("HTTP app built");
  const warm = async () => {
    const report = await warmUp(app.apollo, services);
    logger.info(report, "hot paths warmed");
    mark("warmed");
    return report;
  };
  const first = config.warmup === "first" ? await warm() : null;
  const port = await app.listen(listen.port, listen.host);
  mark("listening");
  const warmed = config.warmup === "background" ? warm() : Promise.resolve(first);
  app.warming(warmed);
  return { db, services, app, port, admin, warmed };
}
