/**
 * Global setup of the api test project: bundles the several-process tests' app (testing/cluster-app.ts) once per
 * run with api/scripts/bundle.mjs, so each app process those tests start loads one file by plain node instead of
 * having tsx transpile and load ~1,500 modules: measured under load 2.7–3.1 s of CPU and 7–9 s to its first
 * line, against 7.5–7.7 s and 28–29 s through tsx (12 app processes in the suite).
 *
 * The bundle is built in the background while the first files run: startAppProcess (testing/processes.ts) waits
 * for it only when it starts an app process. It is built into `<dir>/building` and renamed to `<dir>/ready`, a
 * folder at the same depth (the bundle's paths to its sources are relative to its own folder), so a reader never
 * sees half a bundle; a failed build leaves `<dir>/failed.txt` with the bundler's error. The folder is under
 * api/dist (npm packages left out of the bundle resolve from there, as from api/src) and removed at the end.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { APP_BUNDLE_DIR_ENV, APP_BUNDLE_NAME } from "./processes";

const API = fileURLToPath(new URL("../..", import.meta.url));

export default async function setup(): Promise<() => Promise<void>> {
  await fs.mkdir(path.join(API, "dist"), { recursive: true });
  const dir = await fs.mkdtemp(path.join(API, "dist", "test-cluster-app-"));
  // test workers start after global setup and inherit this process's environment
  process.env[APP_BUNDLE_DIR_ENV] = dir;
  const building = path.join(dir, "building");
  const built = promisify(execFile)(
    process.execPath,
    [
      path.join(API, "scripts/bundle.mjs"),
      path.join(API, "src/testing/cluster-app.ts"),
      path.join(building, APP_BUNDLE_NAME),
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  ).then(
    () => fs.rename(building, path.join(dir, "ready")),
    (err: Error & { stderr?: string }) =>
      fs.writeFile(path.join(dir, "failed.txt"), `${err.message}\n${err.stderr ?? ""}`),
  );
  return async () => {
    await built;
    await fs.rm(dir, { recursive: true, force: true });
  };
}
