import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FakeNotion, startFakeNotion } from "@vidensbank/api/testing/fake-notion";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseHarness, runCli, runCliWithInput } from "../cli.test-helpers";
import { EXIT } from "../errors";
import { progressBar, runSummary, statusLine } from "./notion";

describe("vidensbank notion argv", () => {
  it.each([
    [
      ["notion", "status"],
      ["notionStatus", {}],
    ],
    [
      ["notion", "status", "--json"],
      ["notionStatus", { json: true }],
    ],
    [
      ["notion", "connect", "--token", "secret_x"],
      ["notionConnect", { token: "secret_x" }],
    ],
    [
      ["notion", "databases"],
      ["notionDatabases", {}],
    ],
    [
      ["notion", "select", "a-1", "b-2"],
      ["notionSelect", ["a-1", "b-2"], {}],
    ],
    [
      ["notion", "sync", "--full"],
      ["notionSync", { full: true }],
    ],
    [["notion", "disconnect"], ["notionDisconnect"]],
  ])("should parse %j", async (argv, expected) => {
    const { program, calls } = parseHarness();
    await program.parseAsync(argv, { from: "user" });
    expect(calls).toEqual([expected]);
  });

  it.each([
    [["notion", "connect"], /required option '--token <token>' not specified/],
    [["notion", "select"], /missing required argument 'ids'/],
    [["notion", "sync", "--force"], /unknown option '--force'/],
  ])("should refuse %j and call nothing", async (argv, message) => {
    const { program, calls, err } = parseHarness();
    await expect(program.parseAsync(argv, { from: "user" })).rejects.toThrow();
    expect(calls).toEqual([]);
    expect(err.join("\n")).toMatch(message);
  });

  it("should print status, progress and a run's result in Danish", () => {
    expect(statusLine({ connected: false, workspace: null, via: null })).toBe("Ikke forbundet til Notion");
    expect(statusLine({ connected: true, workspace: { name: "Rum", id: "w" }, via: "token" })).toBe(
      "Forbundet til Notion: Rum (gemt nøgle)",
    );
    const r = {
      id: "r",
      state: "failed" as const,
      trigger: "cli",
      startedAt: new Date(),
      finishedAt: null,
      pagesSeen: 4,
      pagesDone: 2,
      pagesFailed: 1,
      articlesRemoved: 0,
      failures: [
        {
          pageId: "p",
          title: "Side",
          url: null,
          message: "Notion svarede ikke",
          messageKey: "unreachable",
          messageParams: {},
        },
      ],
      error: null,
      errorKey: null,
      errorParams: null,
    };
    expect(progressBar(r, 10)).toBe("[########..] 3/4 sider");
    expect(runSummary(r)).toBe(
      "Synkronisering fejlede: 2 sider hentet, 1 fejlede, 0 artikler fjernet\n  Side: Notion svarede ikke",
    );
  });
});

describe("vidensbank notion against the embedded store and the fake Notion server", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-cli-notion-"));
  const TOKEN = "secret_cli_token_0123456789";
  let fake: FakeNotion;
  let ds: string;

  beforeAll(async () => {
    fake = await startFakeNotion({ tokens: [TOKEN] });
    ds = fake.addDataSource("Wiki", { icon: "📘" });
    fake.addPage(ds, {
      title: "Kaffeordning",
      blocks: [{ type: "paragraph", text: "Kaffen bestilles fredag." }],
    });
    fake.addPage(ds, { title: "Printer", blocks: [{ type: "paragraph", text: "Printeren står i gangen." }] });
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("ADMIN_PASSWORD", "cli-admin-pass");
    vi.stubEnv("NOTION_API_BASE_URL", fake.url);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("should connect, list databases with scores, select, sync and disconnect", async () => {
    expect(await runCli("notion", "status")).toMatchObject({
      code: EXIT.ok,
      out: "Ikke forbundet til Notion",
    });
    const bad = await runCli("notion", "connect", "--token", "secret_wrong");
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain("Notion afviste nøglen");
    const ok = await runCliWithInput(`${TOKEN}\n`, "notion", "connect", "--token", "-");
    expect(ok).toMatchObject({ code: EXIT.ok, out: "Forbundet til Notion: Sekretariatet (gemt nøgle)" });
    const dbs = await runCli("notion", "databases");
    expect(dbs.out).toMatch(new RegExp(`${ds}\\s+Wiki\\s+2\\s+100%\\s+ja`));
    const sel = await runCli("notion", "select", ds);
    expect(sel.code).toBe(EXIT.ok);
    expect(sel.out).toContain("1 databaser konfigureret som videnskilder for alle brugere");
    expect(sel.out).toContain("Synkronisering færdig: 2 sider hentet, 0 fejlede, 0 artikler fjernet");
    const sync = await runCli("notion", "sync", "--json");
    expect(JSON.parse(sync.out)).toMatchObject({ state: "succeeded", trigger: "cli" });
    fake.revoke(TOKEN);
    const failed = await runCli("notion", "sync");
    expect(failed.code).toBe(EXIT.unexpected);
    expect(failed.out).toContain("Notion afviste nøglen");
    expect(await runCli("notion", "disconnect")).toMatchObject({
      code: EXIT.ok,
      out: "Notion-forbindelsen er afbrudt",
    });
    const all = [ok, dbs, sel, sync, failed].map((r) => r.out + r.err).join("\n");
    expect(all).not.toContain(TOKEN);
  }, 60_000);
});
