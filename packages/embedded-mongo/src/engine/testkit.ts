/**
 * Test helpers for the durable engine (not part of the package's API): a fresh temporary data directory per
 * test and engines on it that are closed afterwards. Call useDataDir() at the top of a test file.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { createEngine, type Engine, type EngineOptions } from "./index";

export interface DataDir {
  /** the current test's data directory */
  readonly dir: string;
  /** a durable engine on it, closed after the test */
  open(extra?: Omit<EngineOptions, "dbpath">): Promise<Engine>;
  /** the (first) write-ahead log file in it */
  journal(): string;
}

export function useDataDir(prefix = "engine-durability-"): DataDir {
  let dir = "";
  const open: Engine[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    async open(extra = {}) {
      const e = await createEngine({ dbpath: dir, ...extra });
      open.push(e);
      return e;
    },
    journal() {
      const f = fs.readdirSync(dir).find((n) => n.endsWith(".wal"));
      if (!f) throw new Error("no journal");
      return path.join(dir, f);
    },
  };
}

/**
 * Runs `body` (ES module source; `createEngine` is imported) in its own node process on `dbpath`, so a test can
 * kill it with SIGKILL. The script file lives beside the data directory and is removed by the caller's cleanup
 * (returned).
 */
export function spawnEngineScript(
  dbpath: string,
  name: string,
  body: string,
): {
  child: ChildProcessWithoutNullStreams;
  cleanup(): void;
} {
  const script = `import { createEngine } from ${JSON.stringify(path.resolve(__dirname, "index.ts"))};\n${body}`;
  const file = path.join(dbpath, "..", `${path.basename(dbpath)}-${name}.mts`);
  fs.writeFileSync(file, script);
  // the package root: tsx resolves from there
  const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: path.resolve(__dirname, "../..") });
  return { child, cleanup: () => fs.rmSync(file, { force: true }) };
}
