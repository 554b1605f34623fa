/**
 * The api project shares one module graph per worker (vitest.config.ts: isolate false). A test file that changes
 * module state must run in api-isolated, or the files after it in the same worker inherit the change (stop 34: a
 * vi.resetModules made mongoose see every model registered twice). This keeps the list in vitest.isolated.ts true.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { API_ISOLATED } from "../../../vitest.isolated";

const ROOT = join(__dirname, "..", "..", "..");
const CHANGES_MODULE_STATE = /\bvi\.(mock|doMock|resetModules|spyOn|stubEnv|stubGlobal|useFakeTimers)\b/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

describe("api test isolation", () => {
  it("runs every api test file that changes module state in the isolated project", () => {
    const files = [...testFiles(join(ROOT, "api", "src")), ...testFiles(join(ROOT, "bench"))];
    const changing = files.filter((f) => CHANGES_MODULE_STATE.test(readFileSync(join(ROOT, f), "utf8")));
    // this file names the pattern itself
    const self = relative(ROOT, __filename);
    expect(changing.filter((f) => f !== self && !API_ISOLATED.includes(f))).toEqual([]);
    // and every listed file exists
    expect(API_ISOLATED.filter((f) => !files.includes(f))).toEqual([]);
  });
});
