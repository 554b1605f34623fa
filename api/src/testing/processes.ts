/**
 * Child processes for the several-process tests and benches: the embedded store run on its own (as
 * `npm run db`) and app processes (testing/cluster-app.ts) on it. Each reports itself on its first stdout line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const STORE_BIN = fileURLToPath(
  new URL("../../../packages/embedded-mongo/bin/embedded-mongo.js", import.meta.url),
);
const APP_SCRIPT = fileURLToPath(new URL("./cluster-app.ts", import.meta.url));
/**
 * Set by the api tests' global setup (testing/cluster-app.setup.ts): the folder where it bundles APP_SCRIPT. Without
 * it (a bench, a test run without that setup) app processes run the sources through tsx.
 */
export const APP_BUNDLE_DIR_ENV = "VIDENSBANK_TEST_APP_BUNDLE_DIR";
export const APP_BUNDLE_NAME = "cluster-app.mjs";
/**
 * The store processes' password (EMBEDDED_MONGO_PASSWORD): one per test run, so a store restarted on the same
 * port (a crash test) takes the login the app processes already hold in their URI.
 */
const STORE_PASSWORD = randomBytes(18).toString("base64url");

export interface Child {
  process: ChildProcess;
  /** the first stdout line */
  first: string;
  /** SIGTERM, then wait for the exit (SIGKILL after 10 s) */
  stop(): Promise<void>;
}

function firstLine(
  child: ChildProcess,
  what: string,
  timeoutMs: number,
  accept: (line: string) => boolean = () => true,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4_000);
    });
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start in ${timeoutMs} ms: ${stderr}`)),
      timeoutMs,
    );
    const onLine = (line: string) => {
      if (!accept(line)) return;
      clearTimeout(timer);
      lines.off("line", onLine);
      resolve(line);
    };
    // every line is read (so the child never blocks on a full pipe); log lines before the answer are skipped
    lines.on("line", onLine);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before starting: ${stderr}`));
    });
  });
}

/**
 * Every child this module started that is still running is killed when this process exits: a test whose start-up
 * timed out (a hook timeout under load) never reaches its afterAll's stop, and its store or app processes used to
 * outlive the run.
 */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});
function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.once("exit", () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill("SIGTERM");
    });
}

/**
 * The embedded store in its own process (in memory unless dbpath is given); `first` is its URI, login included
 * (the same for every store this module starts). `nodeArgs`:
 * options for node itself (e.g. `--cpu-prof`; the profile is written when the store exits on SIGTERM).
 */
export async function startStoreProcess(
  opts: { dbpath?: string; port?: number; nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<Child> {
  const args = [
    ...(opts.nodeArgs ?? []),
    STORE_BIN,
    "--port",
    String(opts.port ?? 0),
    ...(opts.dbpath ? ["--dbpath", opts.dbpath] : ["--memory"]),
  ];
  const child = track(
    spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, EMBEDDED_MONGO_PASSWORD: STORE_PASSWORD, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const first = await firstLine(child, "embedded store", 20_000);
  return { process: child, first: first.trim(), stop: stopper(child) };
}

/**
 * Two app processes A and B on the store at `uri`, sharing a JWT secret and the built-in admin's password (plus
 * `env`); one after the other: the first creates the built-in admin and the sample articles.
 */
export async function startAppPair(
  uri: string,
  adminPassword: string,
  env: Record<string, string> = {},
): Promise<[Child & { url: string }, Child & { url: string }]> {
  const shared = {
    MONGODB_URI: uri,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_PASSWORD: adminPassword,
    ...env,
  };
  const a = await startAppProcess(shared);
  return [a, await startAppProcess(shared)];
}

/**
 * One app process (startTestApp) on MONGODB_URI; `first` is {"url","pid"} as JSON. `nodeArgs`: options for
 * node itself (e.g. --cpu-prof, which NODE_OPTIONS does not accept).
 */
export async function startAppProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<Child & { url: string }> {
  const child = track(
    spawn(process.execPath, [...nodeArgs, ...(await appEntry())], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const first = await firstLine(child, "app process", 60_000, (line) => line.startsWith('{"url"'));
  const { url } = JSON.parse(first) as { url: string };
  return { process: child, first, url, stop: stopper(child) };
}

/** How node starts an app process: the run's bundle once it is built, else the sources through tsx. */
async function appEntry(): Promise<string[]> {
  const dir = process.env[APP_BUNDLE_DIR_ENV];
  if (!dir) return ["--import", "tsx", APP_SCRIPT];
  const bundle = path.join(dir, "ready", APP_BUNDLE_NAME);
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (fs.existsSync(bundle)) return [bundle];
    const failed = path.join(dir, "failed.txt");
    if (fs.existsSync(failed))
      throw new Error(`the test app's bundle failed: ${fs.readFileSync(failed, "utf8")}`);
    if (Date.now() > deadline) throw new Error(`the test app's bundle was not built within 180 s (${dir})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A port free a moment ago, for a server that must be told its port (as in production) rather than take 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** An app process's GraphQL endpoint, as chat.test-helpers' gqlOk takes it. */
export const gqlUrl = (app: { url: string }) => ({ graphqlUrl: `${app.url}/graphql` });
/** An app process's GraphQL websocket endpoint, as chat.test-helpers' wsClient takes it. */
export const wsUrl = (app: { url: string }) => ({ wsUrl: `${app.url.replace("http", "ws")}/graphql` });
