/**
 * The REST door's one pattern: each feature's `*.rest.ts` exports a router factory that receives the services
 * (`xRestRouter(services)`), app.ts builds all of them in one place, and no router reaches for a module-level
 * service function or for services stashed in res.locals.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { REST_ROUTERS } from "../app";

const SRC = fileURLToPath(new URL("..", import.meta.url));
/** functions of their arguments only (no store, no state), given what the router has: allowed */
const PURE_HELPERS = new Set(["getEnvironment"]);

function restFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : restFiles(full);
    return e.name.endsWith(".rest.ts") ? [full] : [];
  });
}

describe("REST routers", () => {
  const files = restFiles(SRC);

  it("should build every feature router in app.ts, each from the services", () => {
    expect(files.length).toBeGreaterThan(0);
    expect(REST_ROUTERS).toHaveLength(files.length);
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      expect(text, path.relative(SRC, file)).toMatch(
        /export function \w+RestRouter\(services: Services\): Router/,
      );
    }
  });

  it("should take services only from the argument: no res.locals services, no service functions imported", () => {
    for (const file of files) {
      const name = path.relative(SRC, file);
      const text = fs.readFileSync(file, "utf8");
      expect(text, name).not.toMatch(/locals\(res\)\.services|res\.locals\.services/);
      // value imports from a *.service module: only message catalogues and pure helpers (types are fine)
      for (const m of text.matchAll(/import\s+\{([^}]*)\}\s+from\s+["']([^"']+\.service)["']/g)) {
        const values = m[1]
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s && !s.startsWith("type "));
        expect(
          values.filter((v) => !/Messages$/.test(v) && !PURE_HELPERS.has(v)),
          `${name} imports from ${m[2]}`,
        ).toEqual([]);
      }
    }
  });
});
