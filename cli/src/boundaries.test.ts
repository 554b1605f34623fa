/**
 * The CLI is a door: it calls the API's services through `@vidensbank/api/cli` and nothing else of the API
 * (no relative paths into api/src, no models, no activity writes of its own).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMAND_GROUPS } from "./program";

const SRC = fileURLToPath(new URL(".", import.meta.url));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

const IMPORT = /\bfrom\s+["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}

describe("CLI boundaries", () => {
  const files = sources(SRC).filter((f) => !f.endsWith(".test.ts"));

  it("should reach the API only through @vidensbank/api/cli", () => {
    const offending: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(file)) {
        const intoApi =
          spec.includes("api/src") || (spec.startsWith("@vidensbank/api") && spec !== "@vidensbank/api/cli");
        const storeDirect = spec === "mongoose" || spec === "mongodb";
        if (intoApi || storeDirect) offending.push(`${path.relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("should write no activity and use no models of its own", () => {
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      expect(text, path.relative(SRC, file)).not.toMatch(/recordActivit|\w+Model\./);
    }
  });

  it("should register every file in commands/ as a command group", () => {
    const groups = fs
      .readdirSync(path.join(SRC, "commands"))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    expect(COMMAND_GROUPS).toHaveLength(groups.length);
    for (const group of COMMAND_GROUPS) expect(typeof group.register).toBe("function");
  });
});
