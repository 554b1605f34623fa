/**
 * The direction of dependencies in api/src, read from the import statements of the source files:
 *
 * - A feature module (api/src/<feature>/) does not import a transport (graphql/, rest/) or the composition root
 *   (services.ts, app.ts, main.ts). Its transport adapters (*.resolver.ts, *.rest.ts, *.types.ts: the GraphQL
 *   and REST doors of the feature) are part of the transports and may.
 * - No two feature modules import each other (directly): one of them must depend on the other, or both are
 *   wired in services.ts (hooks) or talk through the event bus (api/src/events).
 *
 * Tests and test helpers (*.test.ts, *.test-helpers.ts) are left out: they may reach anywhere to set things up.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.dirname(new URL(import.meta.url).pathname);

/** folders of api/src that are not features: transports, infrastructure, test support */
const NOT_FEATURES = new Set(["graphql", "rest", "events", "db", "testing"]);
const TRANSPORTS = ["graphql/", "rest/"];
const COMPOSITION_ROOT = ["services.ts", "app.ts", "main.ts"];
const ADAPTER = /\.(resolver|rest|types)\.ts$/;
const TEST_CODE = /\.test(-helpers)?\.ts$/;

/** Known violations that are not fixed yet, each with its reason. Empty: keep it that way. */
const ALLOWED: Array<{ from: string; to: string; reason: string }> = [];

interface SourceFile {
  /** path under api/src, with forward slashes */
  file: string;
  /** the relative imports, resolved to paths under api/src ("../x" leaving api/src stays as written) */
  imports: string[];
}

const IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s(?:[^"'`;]*?\sfrom\s)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The module specifiers of a TypeScript source (static imports, re-exports, side-effect and dynamic imports). */
export function importsOf(source: string): string[] {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return [...withoutComments.matchAll(IMPORT_RE)].map((m) => m[1] ?? m[2]);
}

function resolve(fromFile: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  for (const candidate of [target, `${target}.ts`, `${target}/index.ts`]) {
    if (fs.existsSync(path.join(SRC, candidate)) && fs.statSync(path.join(SRC, candidate)).isFile()) {
      return candidate;
    }
  }
  return target;
}

function sourceFiles(dir = ""): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of fs.readdirSync(path.join(SRC, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      const imports = importsOf(fs.readFileSync(path.join(SRC, rel), "utf8"))
        .map((spec) => resolve(rel, spec))
        .filter((p): p is string => p !== null);
      out.push({ file: rel, imports });
    }
  }
  return out;
}

const featureOf = (file: string): string | null => {
  const [top, ...rest] = file.split("/");
  return rest.length > 0 && !NOT_FEATURES.has(top) ? top : null;
};

const allowed = (from: string, to: string) => ALLOWED.some((a) => a.from === from && a.to === to);

const files = sourceFiles().filter((f) => !TEST_CODE.test(f.file));

describe("architecture: the direction of dependencies in api/src", () => {
  it("should read the imports of the source files", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(importsOf(`import a from "./a";\nimport type { B } from '../b';\nexport * from "./c";\n`)).toEqual(
      ["./a", "../b", "./c"],
    );
    expect(
      importsOf(`import "./side";\nconst m = await import("./lazy");\n// import x from "./comment";`),
    ).toEqual(["./side", "./lazy"]);
    const chat = files.find((f) => f.file === "chat/chat.service.ts");
    expect(chat?.imports).toContain("events/bus.ts");
    expect(featureOf("chat/chat.service.ts")).toBe("chat");
    expect(featureOf("graphql/pubsub.ts")).toBeNull();
    expect(featureOf("services.ts")).toBeNull();
  });

  it("should have no feature module import a transport or the composition root", () => {
    const violations: string[] = [];
    for (const { file, imports } of files) {
      if (!featureOf(file) || ADAPTER.test(file)) continue;
      for (const target of imports) {
        const bad = TRANSPORTS.some((t) => target.startsWith(t)) || COMPOSITION_ROOT.includes(target);
        if (bad && !allowed(file, target)) violations.push(`${file} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("should have no two feature modules import each other", () => {
    const edges = new Map<string, Set<string>>();
    const example = new Map<string, string>();
    for (const { file, imports } of files) {
      const from = featureOf(file);
      if (!from) continue;
      for (const target of imports) {
        const to = featureOf(target);
        if (!to || to === from || allowed(from, to)) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
        if (!example.has(`${from}→${to}`)) example.set(`${from}→${to}`, `${file} → ${target}`);
      }
    }
    const mutual: string[] = [];
    for (const [a, targets] of edges) {
      for (const b of targets) {
        if (a < b && edges.get(b)?.has(a)) {
          mutual.push(`${a} ⇄ ${b} (${example.get(`${a}→${b}`)}; ${example.get(`${b}→${a}`)})`);
        }
      }
    }
    expect(mutual).toEqual([]);
  });
});
