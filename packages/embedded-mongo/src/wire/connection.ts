/**
 * One client connection: split the byte stream into messages, run them one at a time in arrival order, write
 * the replies. A malformed message gets an error reply when its header can be trusted, otherwise the connection
 * is closed; nothing a client sends can throw out of here.
 */
import type { Socket } from "node:net";
import type { Document } from "bson";
import { MAX_AUTH_FAILURES, MAX_PRE_AUTH_MESSAGE_BYTES } from "./auth";
import { runCommand } from "./commands";
import {
  HEADER_SIZE,
  MAX_MESSAGE_SIZE_BYTES,
  OP_COMPRESSED,
  OP_MSG,
  OP_QUERY,
  REPLY_QUERY_FAILURE,
} from "./constants";
import type { CommandContext, ConnectionInfo, ServerState } from "./context";
import { errorReply } from "./errors";
import {
  buildOpMsg,
  buildOpReply,
  type MessageHeader,
  ProtocolError,
  parseOpMsg,
  parseOpQuery,
  readHeader,
} from "./message";

const HANDSHAKE_COMMANDS = new Set(["hello", "isMaster", "ismaster"]);

export class Connection {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private busy = false;
  private closed = false;
  readonly info: ConnectionInfo;

  constructor(
    private readonly socket: Socket,
    private readonly server: ServerState,
    id: number,
  ) {
    this.info = {
      id,
      remote: `${socket.remoteAddress}:${socket.remotePort}`,
      advertised: advertisedAddress(server, socket),
      auth: { failures: 0 },
    };
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      if (this.closed) return; // ending (after too many failed logins): nothing more is read
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      // do not buffer without bound while a slow command runs
      if (this.buffered > 2 * MAX_MESSAGE_SIZE_BYTES) socket.pause();
      void this.pump();
    });
    socket.on("error", () => this.close());
    socket.on("close", () => {
      this.closed = true;
    });
  }

  /** no command running (an idle pooled connection, or a driver's monitoring connection between hellos) */
  get idle(): boolean {
    return !this.busy;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
  }

  /** Process complete messages in order until the buffer holds no complete message. */
  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (!this.closed) {
        const message = this.nextMessage();
        if (!message) break;
        await this.handle(message);
      }
    } catch (err) {
      this.server.logger.error("embedded store: connection failed", err);
      this.close();
    } finally {
      this.busy = false;
      if (!this.closed && this.socket.isPaused() && this.buffered <= MAX_MESSAGE_SIZE_BYTES)
        this.socket.resume();
    }
  }

  private nextMessage(): Buffer | undefined {
    if (this.buffered < 4) return undefined;
    if (this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks)];
    const length = this.chunks[0].readInt32LE(0);
    if (length < HEADER_SIZE || length > MAX_MESSAGE_SIZE_BYTES) {
      // the framing cannot be trusted any more: nothing sensible can be answered
      this.server.logger.warn(
        `embedded store: closing connection ${this.info.id}: invalid message length ${length}`,
      );
      this.close();
      return undefined;
    }
    if (length > MAX_PRE_AUTH_MESSAGE_BYTES && !this.info.auth.user) {
      // before login only the small handshake and SASL messages are needed: nothing large is read or parsed
      this.server.logger.warn(
        `embedded store: closing connection ${this.info.id} from ${this.info.remote}: a ${length}-byte message before login`,
      );
      this.close();
      return undefined;
    }
    if (this.buffered < length) return undefined;
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const message = all.subarray(0, length);
    const rest = all.subarray(length);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return message;
  }

  private write(buf: Buffer): void {
    if (!this.closed) this.socket.write(buf);
  }

  private context(
    db: string,
    messageLength: number,
    sequenceSizes: Record<string, number[]> = {},
  ): CommandContext {
    return { server: this.server, conn: this.info, db, messageLength, sequenceSizes };
  }

  private async handle(buf: Buffer): Promise<void> {
    await this.dispatch(buf);
    if (this.info.auth.failures >= MAX_AUTH_FAILURES && !this.closed) {
      this.server.logger.warn(
        `embedded store: closing connection ${this.info.id} from ${this.info.remote} after ${MAX_AUTH_FAILURES} failed logins`,
      );
      // the reply to the last attempt is written first; a client that keeps its end open is cut off soon after
      this.closed = true;
      this.socket.end();
      setTimeout(() => this.socket.destroy(), 1000).unref();
    }
  }

  private async dispatch(buf: Buffer): Promise<void> {
    const header = readHeader(buf);
    switch (header.opCode) {
      case OP_MSG:
        return this.handleOpMsg(buf, header);
      case OP_QUERY:
        return this.handleOpQuery(buf, header);
      case OP_COMPRESSED:
        this.server.logger.warn(
          `embedded store: closing connection ${this.info.id}: compression was not negotiated`,
        );
        this.close();
        return;
      default:
        this.server.logger.warn(
          `embedded store: closing connection ${this.info.id}: unsupported opCode ${header.opCode}`,
        );
        this.close();
    }
  }

  private async handleOpMsg(buf: Buffer, header: MessageHeader): Promise<void> {
    let request: ReturnType<typeof parseOpMsg>;
    try {
      request = parseOpMsg(buf, header);
    } catch (err) {
      this.write(buildOpMsg(header.requestId, protocolErrorReply(err)));
      return;
    }
    const db = request.command.$db;
    let reply: Document;
    if (typeof db !== "string") {
      reply = {
        ok: 0,
        errmsg: "OP_MSG requests require a $db argument",
        code: 40571,
        codeName: "Location40571",
      };
    } else {
      reply = await runCommand(
        this.context(db, header.messageLength, request.sequenceSizes),
        request.command,
      );
    }
    // moreToCome: the client expects no reply (endSessions, unacknowledged writes)
    if (!request.moreToCome) this.write(this.safeOpMsg(header.requestId, reply));
  }

  /** Serialize a reply; a result that cannot be encoded becomes an error reply instead of a dropped connection. */
  private safeOpMsg(responseTo: number, reply: Document): Buffer {
    try {
      return buildOpMsg(responseTo, reply);
    } catch (err) {
      this.server.logger.error("embedded store: cannot encode a reply", err);
      return buildOpMsg(responseTo, {
        ok: 0,
        errmsg: `cannot encode the reply: ${(err as Error).message}`,
        code: 1,
        codeName: "InternalError",
      });
    }
  }

  private async handleOpQuery(buf: Buffer, header: MessageHeader): Promise<void> {
    let request: ReturnType<typeof parseOpQuery>;
    try {
      request = parseOpQuery(buf, header);
    } catch (err) {
      const reply = protocolErrorReply(err);
      this.write(buildOpReply(header.requestId, [{ $err: reply.errmsg, ...reply }], REPLY_QUERY_FAILURE));
      return;
    }
    const ns = request.fullCollectionName;
    if (!ns.endsWith(".$cmd")) {
      const message =
        "OP_QUERY is no longer supported. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal";
      this.write(
        buildOpReply(
          header.requestId,
          [{ $err: message, code: 5739101, ok: 0, errmsg: message }],
          REPLY_QUERY_FAILURE,
        ),
      );
      return;
    }
    const db = ns.slice(0, -".$cmd".length);
    // a wrapped command: { $query: {...}, $readPreference: ... }
    const command = (
      request.query.$query && typeof request.query.$query === "object" ? request.query.$query : request.query
    ) as Document;
    const name = Object.keys(command)[0] ?? "";
    let reply: Document;
    if (HANDSHAKE_COMMANDS.has(name)) {
      reply = await runCommand(this.context(db, header.messageLength), command);
    } else {
      reply = {
        ok: 0,
        errmsg: `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal`,
        code: 352,
        codeName: "UnsupportedOpQueryCommand",
      };
    }
    this.write(buildOpReply(header.requestId, [reply]));
  }
}

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", ""]);

/**
 * The address hello reports as this member: the host the store listens on, or, when it listens on every
 * interface, the local address this connection came in on (so each client is told an address it can reach).
 */
function advertisedAddress(server: ServerState, socket: Socket): string {
  let host = server.host;
  if (WILDCARD_HOSTS.has(host)) host = (socket.localAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
  return `${host.includes(":") ? `[${host}]` : host}:${server.port}`;
}

function protocolErrorReply(err: unknown): Document {
  if (err instanceof ProtocolError) {
    const codeName =
      err.code === 22 ? "InvalidBSON" : err.code === 10334 ? "BSONObjectTooLarge" : `Location${err.code}`;
    return { ok: 0, errmsg: err.message, code: err.code, codeName };
  }
  return errorReply(err);
}
