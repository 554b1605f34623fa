/**
 * `npm run start:cluster -- --processes N`: several API processes on one machine over one store.
 *
 * 1. The embedded store runs in its own process (as `npm run db`) on DATA_DIR/db; its URI goes to
 *    DATA_DIR/store.json, so the CLI uses it while the cluster runs.
 * 2. N API processes (node:cluster workers running the bundled server, api/dist/main.mjs, as `npm start` runs it:
 *    the primary bundles api/src/main.ts first with api/scripts/bundle.mjs) share PORT: the primary hands each
 *    new connection to a worker in turn. They reach the store through MONGODB_URI, so they share events and caches over its
 *    change streams (services.ts sharedStore). The first starts alone (it creates the JWT secret, the built-in
 *    admin and the sample articles), then the others.
 * 3. A worker that dies is started again (after RESTART_DELAY_MS; a store that dies ends the cluster).
 *    SIGTERM/SIGINT stop the workers (each shuts down gracefully), then the store.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { redactUri, withDatabase } from "@vidensbank/embedded-mongo/uri";
import { loadConfig } from "./config";
import { EMBEDDED_DB_NAME, storeFilePath } from "./db/connection";
import { ensurePrivateDir, writePrivateFileSync } from "./private-files";

const RESTART_DELAY_MS = 1_000;
const STORE_BIN = fileURLToPath(
  new URL("../../packages/embedded-mongo/bin/embedded-mongo.js", import.meta.url),
);
const BUNDLER = fileURLToPath(new URL("../scripts/bundle.mjs", import.meta.url));
/** the bundle `npm start -w api` runs (api/scripts/bundle.mjs's default output) */
const MAIN = fileURLToPath(new URL("../dist/main.mjs", import.meta.url));

function log(msg: string): void {
  process.stderr.write(`[cluster] ${msg}\n`);
}

function processCount(argv: string[]): number {
  const i = argv.indexOf("--processes");
  const raw = i >= 0 ? argv[i + 1] : (process.env.API_PROCESSES ?? "2");
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    log(`--processes must be a whole number 1-64 (got ${raw})`);
    process.exit(2);
  }
  return n;
}

async function startStore(dataDir: string): Promise<{ child: ChildProcess; uri: string }> {
  const dbpath = path.join(dataDir, "db");
  ensurePrivateDir(dbpath, dataDir);
  const child = spawn(process.execPath, [STORE_BIN, "--port", "0", "--dbpath", dbpath], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the store exited (${code}) before starting`)));
  });
  child.stdout?.resume();
  // the app's database in the embedded store, as a single process uses it (the line carries the login)
  const uri = withDatabase(line.trim(), EMBEDDED_DB_NAME);
  return { child, uri };
}

async function primary(): Promise<void> {
  const n = processCount(process.argv.slice(2));
  const config = loadConfig();
  if (config.mongodbUri) {
    log(
      "MONGODB_URI is set: use it for every process (start them with npm start); this script runs the embedded store",
    );
    process.exit(2);
  }
  // the workers start from one bundled file by plain node (as npm start), not through tsx; bundled before the
  // store starts, so a failed bundle leaves nothing running
  execFileSync(process.execPath, [BUNDLER], { stdio: "inherit" });
  const store = await startStore(config.dataDir);
  writePrivateFileSync(
    storeFilePath(config.dataDir),
    JSON.stringify({ uri: store.uri, pid: store.child.pid }),
  );
  log(
    `store ${redactUri(store.uri)} (pid ${store.child.pid}); ${n} API processes on port ${config.port} (${os.cpus().length} cores)`,
  );

  let stopping = false;
  cluster.setupPrimary({ exec: MAIN, execArgv: ["--enable-source-maps"] });
  // node:cluster hands connections to every listening worker and checks no readiness: a worker warms its hot paths
  // before it listens (api/src/warmup.ts), unless WARMUP=0
  const warmup = config.warmup === "off" ? "0" : "first";
  const fork = (): Worker => cluster.fork({ MONGODB_URI: store.uri, WARMUP: warmup });

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    log(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(() => !stopping && fork(), RESTART_DELAY_MS).unref();
  });

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the workers, then the store`);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once("exit", () => resolve());
            w.process.kill("SIGTERM");
          }),
      ),
    );
    await new Promise<void>((resolve) => {
      if (store.child.exitCode !== null) return resolve();
      store.child.once("exit", () => resolve());
      store.child.kill("SIGTERM");
    });
    fs.rmSync(storeFilePath(config.dataDir), { force: true });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  store.child.once("exit", (code) => {
    if (stopping) return;
    log(`the store exited (${code}); stopping`);
    void stop("store exit");
  });

  // the first alone: it creates the JWT secret, the built-in admin and the sample content
  await new Promise<void>((resolve) => fork().once("listening", () => resolve()));
  for (let i = 1; i < n; i++) fork();
}

if (cluster.isPrimary) {
  primary().catch((err) => {
    log(`could not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
