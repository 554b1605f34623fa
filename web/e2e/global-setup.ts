import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** the production build of the web app, built once for the whole e2e run */
    webDist: string;
  }
}

const webRoot = fileURLToPath(new URL("..", import.meta.url));

/** Builds the web app once (vite build, production mode) into a temp dir that every test file serves. */
export default async function setup(project: TestProject) {
  const outDir = await fs.mkdtemp(path.join(os.tmpdir(), "vidensbank-web-e2e-"));
  await build({
    configFile: path.join(webRoot, "vite.config.ts"),
    root: webRoot,
    mode: "production",
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  });
  project.provide("webDist", outDir);
  return async () => {
    await fs.rm(outDir, { recursive: true, force: true });
  };
}
