/**
 * The direction of dependencies for knowledge/ and search/ (ARCHITECTURE.md): a feature never reads or writes
 * another feature's collections nor imports its modules; effects on others go through hooks wired in
 * services.ts. search/ is a library under knowledge/ and the chat: it imports neither. Test files and test
 * helpers may use whatever they test with.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The modules a source file imports, as paths relative to api/src (e.g. "bookmarks/bookmark.model"). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)) {
    out.push(
      path
        .relative(SRC, path.resolve(path.dirname(file), m[1]))
        .split(path.sep)
        .join("/"),
    );
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(SRC, dir))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.includes("test-helpers"))
    .map((f) => path.join(SRC, dir, f));
}

function offending(dir: string, forbidden: string[]): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.some((f) => target.startsWith(`${f}/`)))
      .map((target) => `${path.relative(SRC, file)} → ${target}`),
  );
}

describe("dependency direction", () => {
  it("should find the imports it looks for (the check itself works)", () => {
    expect(importsOf(path.join(SRC, "knowledge", "knowledge.service.ts"))).toContain(
      "knowledge/knowledge.import",
    );
    expect(sourceFiles("knowledge").length).toBeGreaterThan(5);
  });

  it("should keep knowledge/ free of imports from bookmarks/ and chat/", () => {
    expect(offending("knowledge", ["bookmarks", "chat"])).toEqual([]);
  });

  it("should keep search/ free of imports from the features that use it", () => {
    expect(offending("search", ["knowledge", "chat", "bookmarks"])).toEqual([]);
  });
});
