/** A raw wire-protocol client for the conformance suite: hand-built messages, including malformed ones. */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import net from "node:net";
import { Binary, type Document, deserialize, serialize } from "bson";

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

let requestId = 1000;

function header(length: number, opCode: number, id = ++requestId): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(id, 4);
  h.writeInt32LE(0, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

export interface Section {
  kind: 0 | 1;
  doc?: Document;
  id?: string;
  /** documents, or ready-made BSON bytes (for documents the bson library refuses to build) */
  docs?: (Document | Buffer)[];
}

/** BSON bytes of `{ _id: id, blob: "x" * length }`, built by hand so it may exceed 16 MiB. */
export function bigStringDocument(id: string, length: number): Buffer {
  const idName = Buffer.from("_id\0");
  const idValue = Buffer.from(`${id}\0`);
  const blobName = Buffer.from("blob\0");
  const size = 4 + 1 + idName.length + 4 + idValue.length + 1 + blobName.length + 4 + length + 1 + 1;
  const out = Buffer.alloc(size);
  let o = out.writeInt32LE(size, 0);
  out[o++] = 0x02;
  o += idName.copy(out, o);
  o = out.writeInt32LE(idValue.length, o);
  o += idValue.copy(out, o);
  out[o++] = 0x02;
  o += blobName.copy(out, o);
  o = out.writeInt32LE(length + 1, o);
  out.fill(0x78, o, o + length);
  return out; // the string's terminator and the document's are the zeroed last two bytes
}

/** Build an OP_MSG from sections; `flags` as on the wire; a checksum is appended when `checksum` is given. */
export function opMsg(sections: Section[], flags = 0, checksum?: (buf: Buffer) => number): Buffer {
  const parts: Buffer[] = [];
  for (const s of sections) {
    if (s.kind === 0) {
      parts.push(Buffer.from([0]), Buffer.from(serialize(s.doc ?? {})));
    } else {
      const docs = (s.docs ?? []).map((d) => (Buffer.isBuffer(d) ? d : Buffer.from(serialize(d))));
      const id = Buffer.from(`${s.id}\0`, "utf8");
      const size = Buffer.alloc(4);
      size.writeInt32LE(4 + id.length + docs.reduce((n, d) => n + d.length, 0));
      parts.push(Buffer.from([1]), size, id, ...docs);
    }
  }
  const flagBuf = Buffer.alloc(4);
  flagBuf.writeUInt32LE(flags >>> 0);
  const body = Buffer.concat([flagBuf, ...parts]);
  const total = 16 + body.length + (checksum ? 4 : 0);
  const msg = Buffer.concat([header(total, OP_MSG), body, Buffer.alloc(checksum ? 4 : 0)]);
  if (checksum) msg.writeUInt32LE(checksum(msg.subarray(0, total - 4)), total - 4);
  return msg;
}

/** Build an OP_QUERY against `ns` (e.g. "admin.$cmd"). */
export function opQuery(ns: string, query: Document): Buffer {
  const flags = Buffer.alloc(4);
  const nsBuf = Buffer.from(`${ns}\0`, "utf8");
  const skipAndReturn = Buffer.alloc(8);
  skipAndReturn.writeInt32LE(0, 0);
  skipAndReturn.writeInt32LE(-1, 4);
  const q = Buffer.from(serialize(query));
  const body = Buffer.concat([flags, nsBuf, skipAndReturn, q]);
  return Buffer.concat([header(16 + body.length, OP_QUERY), body]);
}

/** A message with an arbitrary header (for malformed input). */
export function rawMessage(length: number, opCode: number, payload: Buffer): Buffer {
  return Buffer.concat([header(length, opCode), payload]);
}

export interface WireReply {
  opCode: number;
  responseTo: number;
  /** OP_MSG: the body document; OP_REPLY: the first document */
  doc: Document;
  flags: number;
}

export type Outcome = { type: "reply"; reply: WireReply } | { type: "closed" } | { type: "timeout" };

function parseReply(buf: Buffer): WireReply {
  const opCode = buf.readInt32LE(12);
  const responseTo = buf.readInt32LE(8);
  if (opCode === OP_MSG) {
    const flags = buf.readUInt32LE(16);
    const size = buf.readInt32LE(21);
    return { opCode, responseTo, flags, doc: deserialize(buf.subarray(21, 21 + size)) };
  }
  const flags = buf.readInt32LE(16);
  const size = buf.readInt32LE(36);
  return { opCode, responseTo, flags, doc: deserialize(buf.subarray(36, 36 + size)) };
}

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private closed = false;
  private waiter?: () => void;

  private constructor(private readonly socket: net.Socket) {
    socket.on("data", (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiter?.();
    });
    socket.on("close", () => {
      this.closed = true;
      this.waiter?.();
    });
    socket.on("error", () => {});
  }

  static connect(host: string, port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  /** Connect to the host and port of a mongodb:// URI and, when it carries a login, log in (SCRAM-SHA-256). */
  static async open(uri: string): Promise<RawConnection> {
    const url = new URL(uri.replace(/^mongodb:/, "http:"));
    const conn = await RawConnection.connect(url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || 27017));
    if (url.username) {
      const db = url.searchParams.get("authSource") ?? "admin";
      const reply = await conn.login(decodeURIComponent(url.username), decodeURIComponent(url.password), db);
      if (reply.ok !== 1) throw new Error(`login failed: ${reply.errmsg}`);
    }
    return conn;
  }

  /**
   * SCRAM-SHA-256 by hand (RFC 5802): saslStart, or `speculative` inside a hello, then saslContinue. Returns the
   * last reply (ok 0 when the server refused) after checking the server's signature when it accepted.
   */
  async login(user: string, password: string, db = "admin", speculative = false): Promise<Document> {
    const clientNonce = randomBytes(18).toString("base64");
    const firstBare = `n=${user.replace(/=/g, "=3D").replace(/,/g, "=2C")},r=${clientNonce}`;
    const start = {
      saslStart: 1,
      mechanism: "SCRAM-SHA-256",
      payload: new Binary(Buffer.from(`n,,${firstBare}`)),
      autoAuthorize: 1,
      options: { skipEmptyExchange: true },
    };
    let first: Document;
    if (speculative) {
      const hello = await this.command(
        opMsg([{ kind: 0, doc: { hello: 1, speculativeAuthenticate: { ...start, db }, $db: "admin" } }]),
      );
      if (!hello.speculativeAuthenticate)
        return { ok: 0, errmsg: "no speculativeAuthenticate in hello", hello };
      first = hello.speculativeAuthenticate;
    } else {
      first = await this.command(opMsg([{ kind: 0, doc: { ...start, $db: db } }]));
      if (first.ok !== 1) return first;
    }
    const serverFirst = Buffer.from((first.payload as Binary).buffer).toString("utf8");
    const attrs = Object.fromEntries(serverFirst.split(",").map((p) => [p[0], p.slice(2)]));
    const salted = pbkdf2Sync(password, Buffer.from(attrs.s, "base64"), Number(attrs.i), 32, "sha256");
    const hmac = (key: Buffer, data: string) => createHmac("sha256", key).update(data).digest();
    const clientKey = hmac(salted, "Client Key");
    const storedKey = createHash("sha256").update(clientKey).digest();
    const withoutProof = `c=biws,r=${attrs.r}`;
    const authMessage = `${firstBare},${serverFirst},${withoutProof}`;
    const signature = hmac(storedKey, authMessage);
    const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i])).toString("base64");
    const final = await this.command(
      opMsg([
        {
          kind: 0,
          doc: {
            saslContinue: 1,
            conversationId: first.conversationId,
            payload: new Binary(Buffer.from(`${withoutProof},p=${proof}`)),
            $db: db,
          },
        },
      ]),
    );
    if (final.ok !== 1) return final;
    const expected = hmac(hmac(salted, "Server Key"), authMessage).toString("base64");
    const got = Buffer.from((final.payload as Binary).buffer).toString("utf8");
    if (got !== `v=${expected}`) throw new Error(`wrong server signature: ${got}`);
    return final;
  }

  send(buf: Buffer): void {
    this.socket.write(buf);
  }

  /** Wait for the next reply, the connection closing, or `timeoutMs` of silence. */
  async next(timeoutMs = 5000): Promise<Outcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.buffer.length >= 4) {
        const len = this.buffer.readInt32LE(0);
        if (this.buffer.length >= len) {
          const msg = this.buffer.subarray(0, len);
          this.buffer = this.buffer.subarray(len);
          return { type: "reply", reply: parseReply(msg) };
        }
      }
      if (this.closed) return { type: "closed" };
      const left = deadline - Date.now();
      if (left <= 0) return { type: "timeout" };
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.waiter = undefined;
    }
  }

  /** Send and wait for the reply document (fails the test when there is none). */
  async command(buf: Buffer): Promise<Document> {
    this.send(buf);
    const outcome = await this.next();
    if (outcome.type !== "reply") throw new Error(`expected a reply, got ${outcome.type}`);
    return outcome.reply.doc;
  }

  close(): void {
    this.socket.destroy();
  }
}
