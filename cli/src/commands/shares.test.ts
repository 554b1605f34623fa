import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, openDatabase } from "@vidensbank/api/cli";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseHarness, runCli } from "../cli.test-helpers";
import { EXIT } from "../errors";

describe("vidensbank shares argv", () => {
  it.each([
    [
      ["shares", "list"],
      ["sharesList", {}],
    ],
    [
      ["shares", "list", "--json"],
      ["sharesList", { json: true }],
    ],
    [
      ["shares", "revoke", "abc"],
      ["sharesRevoke", "abc"],
    ],
  ])("should parse %j", async (argv, expected) => {
    const { program, calls } = parseHarness();
    await program.parseAsync(argv, { from: "user" });
    expect(calls).toEqual([expected]);
  });

  it.each([
    [["shares", "revoke"], /missing required argument 'shareId'/],
    [["shares", "list", "--all"], /unknown option '--all'/],
  ])("should refuse %j and call nothing", async (argv, message) => {
    const { program, calls, err } = parseHarness();
    await expect(program.parseAsync(argv, { from: "user" })).rejects.toThrow();
    expect(calls).toEqual([]);
    expect(err.join("\n")).toMatch(message);
  });
});

describe("vidensbank shares against the embedded store", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-cli-shares-"));
  const SHARE_ID = "Del1ngAfKlagefristSamtalen_12345";

  beforeAll(async () => {
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("ADMIN_PASSWORD", "cli-admin-pass");
    await runCli("users", "create", "-e", "anna@minksekretariatet.dk", "-n", "Anna Berg", "-u", "anna");
    const db = await openDatabase(loadConfig());
    try {
      const anna = await mongoose.connection.collection("users").findOne({ username: "anna" });
      // a share as the API stores it (the API tests make them through GraphQL and REST)
      await mongoose.connection.collection("chat_shares").insertOne({
        shareId: SHARE_ID,
        userId: anna?._id,
        sessionId: "s1",
        title: "Klagefrist",
        createdAt: new Date(),
        messages: [],
      });
    } finally {
      await db.close();
    }
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("should list the shares with their owners, revoke one, and exit 'not found' for an unknown id", async () => {
    const text = await runCli("shares", "list");
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toMatch(/^ID\s+DELT\s+EJER\s+TITEL/);
    expect(text.out).toMatch(
      new RegExp(`${SHARE_ID}\\s+\\S+ \\S+\\s+anna@minksekretariatet.dk\\s+Klagefrist`),
    );
    const json = JSON.parse((await runCli("shares", "list", "--json")).out);
    expect(json).toEqual([
      expect.objectContaining({ id: SHARE_ID, ownerEmail: "anna@minksekretariatet.dk", sessionId: "s1" }),
    ]);

    const revoked = await runCli("shares", "revoke", SHARE_ID);
    expect(revoked).toMatchObject({ code: EXIT.ok, out: `Deling tilbagekaldt: ${SHARE_ID}` });
    expect((await runCli("shares", "list")).out).toBe("Ingen delte samtaler");
    const again = await runCli("shares", "revoke", SHARE_ID);
    expect(again.code).toBe(EXIT.notFound);
    expect(again.err).toContain("Den delte samtale findes ikke");
    const log = JSON.parse((await runCli("activity", "--action", "chat_share_revoke", "--json")).out);
    expect(log.entries[0].description).toContain("Klagefrist");
  });
});
