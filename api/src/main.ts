/** Start the server (start.ts: database, built-in admin, search index, HTTP app); graceful shutdown on SIGTERM/SIGINT. */
import { ConfigError, loadConfig } from "./config";
import { logger } from "./logger";
import { startServer } from "./start";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }

  const { db, services, app, port, admin, warmed } = await startServer(config);
  if (admin.created) {
    const pw = admin.generatedPassword
      ? `password: ${admin.generatedPassword}  (shown once; change it under Min Profil)`
      : "password: from ADMIN_PASSWORD";
    process.stdout.write(`\nBuilt-in admin created: ${admin.email}\n${pw}\n\n`);
  }
  logger.info({ port, url: config.appUrl }, `Vidensbank listening on http://localhost:${port}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      logger.debug("http server closed");
      await warmed; // a warm-up still running uses the services (it never rejects)
      await services.close();
      await db.close();
      logger.info("stopped");
      process.exit(0);
    } catch (err) {
      logger.error({ err }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err) => {
  logger.fatal({ err }, "start-up failed");
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
