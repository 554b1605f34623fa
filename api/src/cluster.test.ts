/**
 * `npm run start:cluster` (cluster.ts): the store in its own process and N workers forked from the bundled server
 * (api/dist/main.mjs by plain node, as `npm start`), not through tsx; they answer on the shared port and stop with
 * the primary.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./testing/processes";

const API = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-cluster-"));
let primary: ChildProcess | undefined;

afterAll(async () => {
  if (primary && primary.exitCode === null) {
    const exited = new Promise((r) => primary?.once("exit", r));
    primary.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe("npm run start:cluster", () => {
  it("should fork its workers from the bundled server and answer on the shared port", async () => {
    const port = await freePort();
    let stderr = "";
    let allStderr = "";
    const { MONGODB_URI: _own, ...env } = process.env; // the cluster runs its own store
    primary = spawn(
      process.execPath,
      ["--import", "tsx", path.join(API, "src/cluster.ts"), "--processes", "2"],
      {
        cwd: API,
        env: {
          ...env,
          DATA_DIR: dataDir,
          PORT: String(port),
          ADMIN_PASSWORD: "cluster-launcher-password",
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    primary.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4_000);
      allStderr += d.toString();
    });
    const t0 = Date.now();
    for (;;) {
      if (primary.exitCode !== null) throw new Error(`the cluster exited: ${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() - t0 > 90_000) throw new Error(`the cluster did not answer: ${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // the workers: children of the primary running the bundle (the other child is the store)
    const workers = () =>
      execFileSync("ps", ["--ppid", String(primary?.pid), "-o", "args="])
        .toString()
        .split("\n")
        .filter((line) => line.includes("main."));
    for (let i = 0; workers().length < 2 && i < 100; i++) await new Promise((r) => setTimeout(r, 200));
    const args = workers();
    expect(args).toHaveLength(2);
    for (const line of args) {
      expect(line).toContain(path.join("api", "dist", "main.mjs"));
      expect(line).not.toContain("tsx");
    }
    // the workers reached the store with its login (readyz pings it); the password is in store.json, not the log
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const { uri } = JSON.parse(fs.readFileSync(path.join(dataDir, "store.json"), "utf8")) as { uri: string };
    const password = decodeURIComponent(new URL(uri.replace("mongodb:", "http:")).password);
    expect(password.length).toBeGreaterThan(16);
    expect(allStderr).toMatch(
      /\[cluster\] store mongodb:\/\/vidensbank:\*\*\*@127\.0\.0\.1:\d+\/vidensbank\?/,
    );
    expect(allStderr).not.toContain(password);
  }, 150_000);
});
