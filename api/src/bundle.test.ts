/**
 * The bundled server (api/scripts/bundle.mjs, what `npm start -w api` runs): paths worked out from
 * import.meta.url (DATA_DIR's default, the sample content, the web build, schema.graphql) and the search index's
 * format key (a hash of api/src/search) come out the same as when the sources run through tsx.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_WEB_DIST } from "./app";
import { DEFAULT_DATA_DIR } from "./config";
import { SCHEMA_FILE } from "./graphql/schema";
import { SAMPLE_CONTENT_DIR } from "./knowledge/knowledge.import";
import { indexFormatKey } from "./search/search.persist";

const API = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = fs.mkdtempSync(path.join(API, "dist-test-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("bundled server", () => {
  it("should work out the same paths and index format key as the sources do", () => {
    const entry = path.join(dir, "entry.ts");
    fs.writeFileSync(
      entry,
      [
        'import { DEFAULT_WEB_DIST } from "../src/app";',
        'import { DEFAULT_DATA_DIR } from "../src/config";',
        'import { SCHEMA_FILE } from "../src/graphql/schema";',
        'import { SAMPLE_CONTENT_DIR } from "../src/knowledge/knowledge.import";',
        'import { indexFormatKey } from "../src/search/search.persist";',
        "const key = indexFormatKey();",
        "console.log(JSON.stringify({ DEFAULT_WEB_DIST, DEFAULT_DATA_DIR, SCHEMA_FILE, SAMPLE_CONTENT_DIR, key }));",
        "process.exit(0);",
      ].join("\n"),
    );
    const out = path.join(dir, "nested", "bundle.mjs"); // another depth than any source file
    execFileSync(process.execPath, [path.join(API, "scripts/bundle.mjs"), entry, out]);
    // run by plain node, as `npm start -w api` runs the server's bundle
    const printed = execFileSync(process.execPath, [out], { env: { ...process.env, LOG_LEVEL: "silent" } });
    expect(JSON.parse(printed.toString().trim().split("\n").pop() ?? "")).toEqual({
      DEFAULT_WEB_DIST,
      DEFAULT_DATA_DIR,
      SCHEMA_FILE,
      SAMPLE_CONTENT_DIR,
      key: indexFormatKey(),
    });
  });
});
