import { describe, expect, it } from "vitest";
import { parseHarness } from "../cli.test-helpers";
import { importSummary } from "./knowledge";

describe("vidensbank knowledge argv", () => {
  it.each([
    [
      ["knowledge", "import", "content"],
      ["knowledgeImport", "content", {}],
    ],
    [
      ["knowledge", "import", "./docs/artikler", "--json"],
      ["knowledgeImport", "./docs/artikler", { json: true }],
    ],
  ])("should parse %j", async (argv, expected) => {
    const { program, calls } = parseHarness();
    await program.parseAsync(argv, { from: "user" });
    expect(calls).toEqual([expected]);
  });

  it.each([
    [["knowledge", "import"], /missing required argument 'dir'/],
    [["knowledge", "import", "a", "b"], /too many arguments/],
    [["knowledge", "import", "a", "--force"], /unknown option '--force'/],
    [["knowledge", "export"], /unknown command 'export'/],
  ])("should refuse %j and call nothing", async (argv, message) => {
    const { program, calls, err } = parseHarness();
    await expect(program.parseAsync(argv, { from: "user" })).rejects.toThrow();
    expect(calls).toEqual([]);
    expect(err.join("\n")).toMatch(message);
  });

  it("should summarise an import in one Danish line", () => {
    expect(importSummary("/x", { created: 1, updated: 2, unchanged: 3, total: 6 })).toBe(
      "Importeret fra /x: 6 artikler (1 oprettet, 2 opdateret, 3 uændret)",
    );
  });
});
