/**
 * The several-process tests' children do not outlive the process that started them: a test whose start-up timed
 * out never reaches its afterAll, and its store kept running after the run.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const PROCESSES = fileURLToPath(new URL("./processes.ts", import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it("kills a store process it started when it exits without stopping it", async () => {
  // a process that starts a store and exits without stopping it
  const script = `const { startStoreProcess } = await import(${JSON.stringify(PROCESSES)});
const store = await startStoreProcess();
console.log(store.process.pid);
process.exit(0);`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  const pid = Number(out.trim().split("\n").pop());
  expect(pid).toBeGreaterThan(0);
  await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
}, 60_000);
