import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadConfig, openDatabase } from "@vidensbank/api/cli";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli, runCliWithInput } from "./cli.test-helpers";
import type { Invoke } from "./command";
import { EXIT } from "./errors";
import { run } from "./index";

const BIN = fileURLToPath(new URL("../bin/vidensbank.js", import.meta.url));

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

/** An invoke that records each parsed command (its name and arguments) and runs nothing. */
function recordingInvoke() {
  const calls: Array<[string, ...unknown[]]> = [];
  const invoke: Invoke = async (name, _body, ...args) => {
    calls.push([name, ...args]);
  };
  return { invoke, calls };
}

describe("vidensbank argv", () => {
  const ok: Array<[string[], [string, ...unknown[]]]> = [
    [
      ["users", "list"],
      ["usersList", {}],
    ],
    [
      ["users", "list", "--search", "anne", "--json"],
      ["usersList", { search: "anne", json: true }],
    ],
    [
      ["users", "create", "-e", "a@minksekretariatet.dk", "-n", "Anne Holm", "-u", "anne"],
      ["usersCreate", { email: "a@minksekretariatet.dk", name: "Anne Holm", username: "anne" }],
    ],
    [
      [
        "users",
        "create",
        "--email",
        "a@x.dk",
        "--name",
        "A B",
        "--username",
        "abc",
        "--password",
        "hemmelig",
        "--admin",
        "--unverified",
      ],
      [
        "usersCreate",
        {
          email: "a@x.dk",
          name: "A B",
          username: "abc",
          password: "hemmelig",
          admin: true,
          unverified: true,
        },
      ],
    ],
    [
      ["users", "reset-password", "anne", "-p", "nyt-kodeord"],
      ["usersResetPassword", "anne", { password: "nyt-kodeord" }],
    ],
    [
      ["users", "reset-password", "anne@minksekretariatet.dk"],
      ["usersResetPassword", "anne@minksekretariatet.dk", {}],
    ],
    [
      ["users", "delete", "anne", "--yes"],
      ["usersDelete", "anne", { yes: true }],
    ],
    [
      ["users", "delete", "anne"],
      ["usersDelete", "anne", {}],
    ],
    [
      ["admin", "create", "-e", "b@minksekretariatet.dk", "-n", "Bo Boss", "-u", "boss"],
      ["adminCreate", { email: "b@minksekretariatet.dk", name: "Bo Boss", username: "boss" }],
    ],
  ];
  it.each(ok)("should parse %j", async (argv, expected) => {
    const { invoke, calls } = recordingInvoke();
    const { io } = capture();
    expect(await run(argv, io, invoke)).toBe(EXIT.ok);
    expect(calls).toEqual([expected]);
  });

  const bad: Array<[string[], RegExp]> = [
    [
      ["users", "create", "-e", "a@minksekretariatet.dk", "-n", "Anne"],
      /required option '-u, --username <username>'/,
    ],
    [["users", "reset-password"], /missing required argument 'user'/],
    [["users", "frobnicate"], /unknown command 'frobnicate'/],
    [["nope"], /unknown command 'nope'/],
    [["users", "list", "--search"], /argument missing/],
    [["users", "delete", "anne", "--force"], /unknown option '--force'/],
  ];
  it.each(bad)("should refuse %j with a usage error (exit 2) and call nothing", async (argv, message) => {
    const { invoke, calls } = recordingInvoke();
    const { io, err } = capture();
    expect(await run(argv, io, invoke)).toBe(EXIT.usage);
    expect(calls).toEqual([]);
    expect(err.join("\n")).toMatch(message);
  });

  it("should print help and exit 0 for --help", async () => {
    const { invoke } = recordingInvoke();
    const { io, out } = capture();
    expect(await run(["--help"], io, invoke)).toBe(EXIT.ok);
    expect(out.join("\n")).toContain("Usage: vidensbank");
  });
});

describe("vidensbank against the embedded store", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-cli-"));

  beforeAll(() => {
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("ADMIN_PASSWORD", "cli-admin-pass");
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("should create, list, reset and delete users with the services' rules and exit codes", async () => {
    const created = await runCli(
      "users",
      "create",
      "-e",
      "Mette.F@minksekretariatet.dk",
      "-n",
      "Mette Frederiksen",
      "-u",
      "mettef",
    );
    expect(created.code).toBe(EXIT.ok);
    expect(created.out).toContain("Bruger oprettet: mette.f@minksekretariatet.dk");
    expect(created.out).toMatch(/Adgangskode: \S{10,}/);

    const dup = await runCli(
      "users",
      "create",
      "-e",
      "mette.f@minksekretariatet.dk",
      "-n",
      "Mette F",
      "-u",
      "andet",
    );
    expect(dup).toMatchObject({ code: EXIT.conflict, err: "Der findes allerede en bruger med denne email" });

    const invalid = await runCli("users", "create", "-e", "x@gmail.com", "-n", "Xy", "-u", "xyz");
    expect(invalid).toMatchObject({
      code: EXIT.usage,
      err: "Kun @minksekretariatet.dk email adresser er tilladt",
    });

    const admin = await runCli(
      "admin",
      "create",
      "-e",
      "chef@minksekretariatet.dk",
      "-n",
      "Chef Chefsen",
      "-u",
      "chef",
      "-p",
      "chef-pass-1",
    );
    expect(admin.code).toBe(EXIT.ok);
    expect(admin.out).toContain("(chef, admin)");

    const list = await runCli("users", "list");
    expect(list.code).toBe(EXIT.ok);
    expect(list.out.split("\n")[0]).toMatch(/^ID\s+EMAIL\s+BRUGERNAVN/);
    expect(list.out).toContain("mette.f@minksekretariatet.dk");
    expect(list.out).toContain("3 brugere"); // the built-in admin, Mette, the chef

    const json = await runCli("users", "list", "--json", "--search", "METTE");
    expect(JSON.parse(json.out)).toEqual([
      expect.objectContaining({ username: "mettef", verified: true, role: "user" }),
    ]);

    const reset = await runCli("users", "reset-password", "mettef", "-p", "nyt-kodeord");
    expect(reset.code).toBe(EXIT.ok);
    // "-": the password from standard input (not in the process list), not printed back
    const piped = await runCliWithInput(
      "fra-stdin-42\nnæste linje\n",
      "users",
      "reset-password",
      "mettef",
      "-p",
      "-",
    );
    expect(piped).toMatchObject({ code: EXIT.ok, err: "" });
    expect(piped.out).not.toContain("fra-stdin-42");
    expect(piped.out).not.toContain("Ny adgangskode");
    const emptyInput = await runCliWithInput("", "users", "reset-password", "mettef", "-p", "-");
    expect(emptyInput).toMatchObject({
      code: EXIT.usage,
      err: "Ingen værdi på standardinput (forventede én linje)",
    });
    const short = await runCli("users", "reset-password", "mettef", "-p", "123");
    expect(short).toMatchObject({ code: EXIT.usage, err: "Password skal være mindst 6 tegn" });
    const missing = await runCli("users", "reset-password", "ingen@minksekretariatet.dk");
    expect(missing).toMatchObject({ code: EXIT.notFound, err: "Brugeren blev ikke fundet" });

    const noConfirm = await runCli("users", "delete", "mettef");
    expect(noConfirm.code).toBe(EXIT.usage);
    expect(noConfirm.err).toContain("--yes");
    const protectedAdmin = await runCli("users", "delete", "admin@minksekretariatet.dk", "--yes");
    expect(protectedAdmin).toMatchObject({ code: EXIT.forbidden, err: "Admin-brugeren kan ikke slettes" });
    const del = await runCli("users", "delete", "mettef", "--yes");
    expect(del).toMatchObject({ code: EXIT.ok, out: "Bruger slettet: mette.f@minksekretariatet.dk" });
    expect((await runCli("users", "list", "--json")).out).not.toContain("mettef");
  });

  it("should leave the same activity-log entries as the web", async () => {
    const config = loadConfig();
    const db = await openDatabase(config);
    try {
      const actions = await mongoose.connection
        .collection("activity_logs")
        .find({}, { projection: { action: 1, description: 1 } })
        .toArray();
      const names = actions.map((a) => a.action);
      expect(names).toEqual(
        expect.arrayContaining(["admin_create_user", "admin_reset_password", "admin_delete_user"]),
      );
      // written once, by the service the admin panel uses, as the built-in admin
      const created = await mongoose.connection
        .collection("activity_logs")
        .find({ action: "admin_create_user", "metadata.via": "cli" })
        .toArray();
      expect(created.map((a) => a.description).sort()).toEqual([
        "Administrator oprettede brugeren chef@minksekretariatet.dk (CLI)",
        "Administrator oprettede brugeren mette.f@minksekretariatet.dk (CLI)",
      ]);
      expect(created.every((a) => a.userEmail === config.adminEmail)).toBe(true);
    } finally {
      await db.close();
    }
  });

  it("should reach the running server's store while the server holds the data directory", async () => {
    // this process plays the server: it starts the store in DATA_DIR and publishes its URI in store.json
    const config = loadConfig();
    const db = await openDatabase(config);
    try {
      expect(db.mode).toBe("embedded-started");
      const env = { ...process.env, DATA_DIR: dataDir, NODE_ENV: "test" };
      const exec = promisify(execFile);
      const created = await exec(
        process.execPath,
        [
          BIN,
          "users",
          "create",
          "-e",
          "live@minksekretariatet.dk",
          "-n",
          "Live Bruger",
          "-u",
          "live",
          "-p",
          "live-pass",
        ],
        { env },
      );
      expect(created.stdout).toContain("Bruger oprettet: live@minksekretariatet.dk");
      // the server process sees the user at once
      expect(
        await mongoose.connection.collection("users").countDocuments({ email: "live@minksekretariatet.dk" }),
      ).toBe(1);
      const listed = await exec(process.execPath, [BIN, "users", "list", "--json"], { env });
      expect(JSON.parse(listed.stdout).map((u: { username: string }) => u.username)).toContain("live");
      const failed = await exec(process.execPath, [BIN, "users", "delete", "admin", "--yes"], { env }).catch(
        (e) => e,
      );
      expect(failed.code).toBe(EXIT.forbidden);
      expect(failed.stderr).toContain("Admin-brugeren kan ikke slettes");
    } finally {
      await db.close();
    }
  }, 60_000);
});
