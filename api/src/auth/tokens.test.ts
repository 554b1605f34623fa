import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hashToken, loadJwtSecret, randomToken, signAuthToken, verifyAuthToken } from "./tokens";

describe("auth tokens", () => {
  const secret = new TextEncoder().encode("s".repeat(48));

  it("should sign and verify a token carrying the user and session ids", async () => {
    const token = await signAuthToken(secret, { sub: "u1", sid: "s1" }, 60);
    expect(await verifyAuthToken(secret, token)).toEqual({ sub: "u1", sid: "s1" });
  });

  it("should refuse tokens with another secret, expired, tampered or malformed", async () => {
    const token = await signAuthToken(secret, { sub: "u1", sid: "s1" }, 60);
    expect(await verifyAuthToken(new TextEncoder().encode("t".repeat(48)), token)).toBeNull();
    expect(
      await verifyAuthToken(secret, await signAuthToken(secret, { sub: "u1", sid: "s1" }, -10)),
    ).toBeNull();
    const [h, p, sig] = token.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ sub: "admin", sid: "s1" })).toString("base64url");
    expect(await verifyAuthToken(secret, `${h}.${forgedPayload}.${sig}`)).toBeNull();
    expect(await verifyAuthToken(secret, `${h}.${p}.`)).toBeNull();
    expect(await verifyAuthToken(secret, "x".repeat(5000))).toBeNull();
  });

  it("should keep a generated secret in DATA_DIR and reuse it", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-secret-"));
    try {
      const first = loadJwtSecret({ dataDir });
      expect(first.length).toBeGreaterThanOrEqual(48);
      expect(loadJwtSecret({ dataDir })).toEqual(first);
      expect(fs.statSync(path.join(dataDir, "jwt-secret")).mode & 0o777).toBe(0o600);
      expect(loadJwtSecret({ dataDir, jwtSecret: "c".repeat(32) })).toEqual(
        new TextEncoder().encode("c".repeat(32)),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("should make unguessable single-use tokens stored only as hashes", () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
  });
});
