/** JWTs (jose, HS256) and single-use random tokens (stored only as hashes). */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { jwtVerify, SignJWT } from "jose";
import type { AppConfig } from "../config";
import { ensurePrivateDir } from "../private-files";

export interface AuthClaims {
  /** user id */
  sub: string;
  /** login session id (sessions.sid) */
  sid: string;
}

/**
 * JWT_SECRET when set; otherwise a secret generated once and kept in DATA_DIR/jwt-secret, so tokens survive
 * restarts without configuration.
 */
export function loadJwtSecret(config: Pick<AppConfig, "jwtSecret" | "dataDir">): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, "jwt-secret");
  try {
    return new TextEncoder().encode(fs.readFileSync(file, "utf8").trim());
  } catch {
    ensurePrivateDir(config.dataDir);
    const secret = randomBytes(48).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    } catch (e) {
      // another process (server or CLI) created it first: use theirs
      if ((e as NodeJS.ErrnoException).code === "EEXIST")
        return new TextEncoder().encode(fs.readFileSync(file, "utf8").trim());
      throw e;
    }
    return new TextEncoder().encode(secret);
  }
}

export async function signAuthToken(
  secret: Uint8Array,
  claims: AuthClaims,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secret);
}

/** The claims of a valid, unexpired token; null for anything else. */
export async function verifyAuthToken(secret: Uint8Array, token: string): Promise<AuthClaims | null> {
  const claims = await verifyAuthTokenExpiring(secret, token);
  return claims && { sub: claims.sub, sid: claims.sid };
}

/** verifyAuthToken() plus the token's expiry (`exp`, seconds since the epoch; undefined when it has none). */
export async function verifyAuthTokenExpiring(
  secret: Uint8Array,
  token: string,
): Promise<(AuthClaims & { exp?: number }) | null> {
  if (!token || token.length > 4096) return null;
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    return {
      sub: payload.sub,
      sid: payload.sid,
      exp: typeof payload.exp === "number" ? payload.exp : undefined,
    };
  } catch {
    return null;
  }
}

/** A URL-safe random token for e-mail links and session ids. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** The stored form of a single-use token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
