import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, openDatabase } from "@vidensbank/api/cli";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseHarness, runCli } from "../cli.test-helpers";
import { EXIT } from "../errors";

describe("vidensbank stats / activity / gaps argv", () => {
  it.each([
    [["stats"], ["stats", {}]],
    [
      ["stats", "--json"],
      ["stats", { json: true }],
    ],
    [["activity"], ["activity", {}]],
    [
      ["activity", "--action", "login", "--since", "24h", "--search", "anna", "--limit", "5", "--json"],
      ["activity", { action: "login", since: "24h", search: "anna", limit: "5", json: true }],
    ],
    [
      ["gaps", "--limit", "3"],
      ["gaps", { limit: "3" }],
    ],
  ])("should parse %j", async (argv, expected) => {
    const { program, calls } = parseHarness();
    await program.parseAsync(argv, { from: "user" });
    expect(calls).toEqual([expected]);
  });

  it.each([
    [["activity", "--since", "3d"], /Allowed choices are 1h, 24h, 7d/],
    [["stats", "extra"], /too many arguments/],
    [["gaps", "--all"], /unknown option '--all'/],
  ])("should refuse %j and call nothing", async (argv, message) => {
    const { program, calls, err } = parseHarness();
    await expect(program.parseAsync(argv, { from: "user" })).rejects.toThrow();
    expect(calls).toEqual([]);
    expect(err.join("\n")).toMatch(message);
  });
});

describe("vidensbank stats / activity / gaps against the embedded store", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-cli-stats-"));

  beforeAll(async () => {
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("ADMIN_PASSWORD", "cli-admin-pass");
    await runCli("users", "create", "-e", "anna@minksekretariatet.dk", "-n", "Anna Berg", "-u", "anna");
    const db = await openDatabase(loadConfig());
    try {
      const gap = (question: string, minutes: number) => ({
        question,
        userId: new mongoose.Types.ObjectId(),
        sessionId: "s",
        messageId: null,
        timestamp: new Date(Date.now() - minutes * 60_000),
      });
      await mongoose.connection
        .collection("knowledge_gaps")
        .insertMany([
          gap("Hvor mange feriedage har en medarbejder?", 10),
          gap("Hvor mange feriedage har medarbejderne?", 5),
        ]);
    } finally {
      await db.close();
    }
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("should print the statistics as a table and as JSON", async () => {
    const text = await runCli("stats");
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toMatch(/^NØGLETAL\s+VÆRDI/);
    expect(text.out).toMatch(/Samlede brugere\s+2\n/);
    expect(text.out).toContain("Populære kategorier");
    const json = JSON.parse((await runCli("stats", "--json")).out);
    expect(json).toMatchObject({ totalUsers: 2, totalMessages: 0, avgSessionDuration: 0 });
    expect(json.messagesPerDay).toHaveLength(30);
  });

  it("should print the filtered activity log", async () => {
    const text = await runCli("activity", "--action", "admin_create_user", "--since", "1h");
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toMatch(/^TIDSPUNKT\s+HANDLING\s+BRUGER\s+BESKRIVELSE/);
    expect(text.out).toContain("Administrator oprettede brugeren anna@minksekretariatet.dk (CLI)");
    expect(text.out).toMatch(/1 af 1 aktiviteter$/);
    const json = JSON.parse((await runCli("activity", "--search", "ANNA@", "--json")).out);
    expect(json).toMatchObject({ total: 1, hasMore: false });
    expect((await runCli("activity", "--search", "findes-ikke")).out).toBe("Ingen aktivitet fundet");
    expect((await runCli("activity", "--limit", "0")).code).toBe(EXIT.usage);
  });

  it("should print the knowledge gaps grouped", async () => {
    const text = await runCli("gaps");
    expect(text.code).toBe(EXIT.ok);
    expect(text.out.split("\n")[2]).toMatch(/^2\s+\S+ \S+\s+Hvor mange feriedage har medarbejderne\?$/);
    const json = JSON.parse((await runCli("gaps", "--json")).out);
    expect(json).toEqual([
      expect.objectContaining({ count: 2, question: "Hvor mange feriedage har medarbejderne?" }),
    ]);
  });
});
