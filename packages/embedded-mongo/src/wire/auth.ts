/**
 * SCRAM-SHA-256 (RFC 5802, RFC 7677) as mongod speaks it to the official drivers: saslStart / saslContinue on the
 * admin database, or the first step inside hello's `speculativeAuthenticate`.
 *
 * Per user only the salt, the iteration count, StoredKey and ServerKey are kept, never the password. An unknown
 * user gets a made-up but stable salt and fails at the same step, with the same error, as a wrong password, so a
 * client cannot tell which users exist. Proofs are compared in constant time.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";
import { Binary, type Document } from "bson";
import type { CommandContext, ScramUser, UserStore } from "./context";
import { commandError } from "./errors";

export const SCRAM_MECHANISM = "SCRAM-SHA-256";
/** mongod's default scramSHA256IterationCount */
export const SCRAM_ITERATIONS = 15_000;
/** the only database users live in (authSource=admin) */
export const AUTH_DB = "admin";
/** the failed attempt that closes the connection */
export const MAX_AUTH_FAILURES = 5;
/** largest message accepted from a connection that has not logged in (checked on the header) */
export const MAX_PRE_AUTH_MESSAGE_BYTES = 1024;
export const AUTH_FAILED_MESSAGE = "Authentication failed.";

/** what a connection may run before it has logged in (as mongod allows) */
export const PRE_AUTH_COMMANDS = new Set([
  "hello",
  "isMaster",
  "ismaster",
  "saslStart",
  "saslContinue",
  "authenticate",
  "ping",
  "buildInfo",
  "buildinfo",
  "endSessions",
  "logout",
]);

export interface Credentials {
  user: string;
  password: string;
}

const hmac = (key: Buffer, data: string | Buffer) => createHmac("sha256", key).update(data).digest();
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest();

/** The server's users: what SCRAM needs to check a proof, and nothing from which the password follows cheaply. */
export class AuthUsers implements UserStore {
  private readonly users = new Map<string, ScramUser>();
  /** makes the stand-in salt of unknown users stable per user name and unguessable */
  private readonly secret = randomBytes(32);

  constructor(credentials: Credentials[]) {
    for (const { user, password } of credentials) {
      if (!user) throw new Error("the store's user name must not be empty");
      if (!password) throw new Error("the store's password must not be empty");
      const salt = randomBytes(28);
      // the drivers SASLprep the password; NFKC is the part of it that matters for real passwords
      const salted = pbkdf2Sync(password.normalize("NFKC"), salt, SCRAM_ITERATIONS, 32, "sha256");
      this.users.set(user, {
        salt,
        iterations: SCRAM_ITERATIONS,
        storedKey: sha256(hmac(salted, "Client Key")),
        serverKey: hmac(salted, "Server Key"),
      });
    }
  }

  lookup(db: string, user: string): ScramUser | undefined {
    return db === AUTH_DB ? this.users.get(user) : undefined;
  }

  /** a salt for a user that does not exist: the same on every attempt, like a real one */
  fakeSalt(db: string, user: string): Buffer {
    return hmac(this.secret, `${db}\0${user}`).subarray(0, 28);
  }
}

function payloadText(payload: unknown): string {
  if (payload instanceof Binary)
    return Buffer.from(payload.buffer.subarray(0, payload.position)).toString("utf8");
  if (typeof payload === "string") return payload;
  if (payload instanceof Uint8Array) return Buffer.from(payload).toString("utf8");
  throw commandError(2, "SASL payload must be binary data");
}

/** "a=1,b=2" → { a: "1", b: "2" } (values may contain '=') */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(",")) {
    const eq = part.indexOf("=");
    if (eq === 1) out.set(part[0], part.slice(2));
  }
  return out;
}

/** a SCRAM saslname: "=2C" is ',', "=3D" is '='; any other '=' is invalid */
function decodeName(name: string): string | undefined {
  if (/=(?!2C|3D)/.test(name)) return undefined;
  return name.replace(/=2C/g, ",").replace(/=3D/g, "=");
}

let conversations = 0;

function failed(ctx: CommandContext, user: string, why: string): never {
  const auth = ctx.conn.auth;
  auth.conversation = undefined;
  auth.failures++;
  ctx.server.logger.warn(
    `embedded store: authentication failed for user '${user}' from ${ctx.conn.remote} (connection ${ctx.conn.id}, attempt ${auth.failures}): ${why}`,
  );
  throw commandError(18, AUTH_FAILED_MESSAGE);
}

/** The first step (saslStart, or hello's speculativeAuthenticate): the client's nonce and user in, the salt out. */
export function saslStart(ctx: CommandContext, cmd: Document): Document {
  const users = ctx.server.auth;
  const mechanism = cmd.mechanism;
  if (mechanism !== SCRAM_MECHANISM) {
    ctx.conn.auth.failures++;
    throw commandError(
      334,
      `Received authentication for mechanism ${String(mechanism)} which is not enabled`,
    );
  }
  const clientFirst = payloadText(cmd.payload);
  // gs2 header: no channel binding ("n,,"); "y,," (client could but thinks we cannot) is fine too
  const match = /^([ny]),,(.*)$/s.exec(clientFirst);
  if (!match) failed(ctx, "?", "malformed client-first message (channel binding is not supported)");
  const firstBare = match[2];
  const attrs = attributes(firstBare);
  const user = decodeName(attrs.get("n") ?? "");
  const clientNonce = attrs.get("r") ?? "";
  if (!user || !/^[\x21-\x2b\x2d-\x7e]+$/.test(clientNonce))
    failed(ctx, user ?? "?", "malformed client-first message");
  const known = users.lookup(ctx.db, user);
  const salt = known?.salt ?? users.fakeSalt(ctx.db, user);
  const iterations = known?.iterations ?? SCRAM_ITERATIONS;
  const nonce = clientNonce + randomBytes(24).toString("base64");
  const serverFirst = `r=${nonce},s=${salt.toString("base64")},i=${iterations}`;
  const id = ++conversations;
  ctx.conn.auth.conversation = { id, user: `${ctx.db}\0${user}`, nonce, firstBare, serverFirst };
  return { conversationId: id, done: false, payload: new Binary(Buffer.from(serverFirst)), ok: 1 };
}

/** The second step: check the client's proof; on success the connection is logged in as that user. */
export function saslContinue(ctx: CommandContext, cmd: Document): Document {
  const auth = ctx.conn.auth;
  const conv = auth.conversation;
  if (!conv || Number(cmd.conversationId) !== conv.id) {
    if (auth.user) return { conversationId: cmd.conversationId, done: true, payload: new Binary(), ok: 1 };
    failed(ctx, "?", "no SCRAM conversation in progress");
  }
  const [db, user] = conv.user.split("\0");
  const clientFinal = payloadText(cmd.payload);
  const proofAt = clientFinal.lastIndexOf(",p=");
  const attrs = attributes(clientFinal);
  const proof = Buffer.from(attrs.get("p") ?? "", "base64");
  if (proofAt < 0 || attrs.get("c") !== "biws" || attrs.get("r") !== conv.nonce || proof.length !== 32)
    failed(ctx, user, "malformed client-final message");
  const known = ctx.server.auth.lookup(db, user);
  const authMessage = `${conv.firstBare},${conv.serverFirst},${clientFinal.slice(0, proofAt)}`;
  // an unknown user runs the same computation against a throw-away key, so it takes as long
  const storedKey = known?.storedKey ?? randomBytes(32);
  const signature = hmac(storedKey, authMessage);
  const clientKey = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) clientKey[i] = proof[i] ^ signature[i];
  const matches = timingSafeEqual(sha256(clientKey), storedKey);
  if (!known || !matches) failed(ctx, user, known ? "wrong password" : "no such user");
  auth.conversation = undefined;
  auth.user = user;
  auth.failures = 0;
  const serverSignature = hmac(known.serverKey, authMessage).toString("base64");
  return {
    conversationId: conv.id,
    done: true,
    payload: new Binary(Buffer.from(`v=${serverSignature}`)),
    ok: 1,
  };
}

/** hello's speculativeAuthenticate: the saslStart reply, or nothing (the driver then runs saslStart itself) */
export function speculativeAuthenticate(ctx: CommandContext, request: unknown): Document | undefined {
  if (!request || typeof request !== "object") return undefined;
  const cmd = request as Document;
  if (cmd.saslStart !== 1 && cmd.saslStart !== true) return undefined;
  const db = typeof cmd.db === "string" ? cmd.db : ctx.db;
  try {
    return saslStart({ ...ctx, db }, cmd);
  } catch {
    // mongod answers a failed speculative attempt by leaving the field out
    return undefined;
  }
}

/** The command's refusal before login (mongod's words), or undefined when it may run. */
export function requiresLogin(ctx: CommandContext, name: string): Error | undefined {
  if (ctx.conn.auth.user || PRE_AUTH_COMMANDS.has(name)) return undefined;
  return commandError(13, `Command ${name} requires authentication`);
}
