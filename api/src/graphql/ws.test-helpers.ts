/**
 * A raw graphql-transport-ws client for the websocket security tests: it sends exactly what a test says (oversized,
 * fragmented or binary frames, no connection_init, chosen Origin/Cookie headers, a chosen source address on the
 * loopback network) and records what comes back, including an HTTP refusal of the handshake.
 */
import WebSocket from "ws";

export interface RawSocket {
  ws: WebSocket;
  /** parsed messages from the server, in order */
  messages: Array<{ type: string; id?: string; payload?: unknown }>;
  /** settles when the socket has closed */
  closed: Promise<{ code: number; reason: string }>;
  /** how the socket closed, or "still open" after `timeoutMs` (a test fails with a clear message, not a timeout) */
  closedWithin(timeoutMs?: number): Promise<{ code: number; reason: string } | "still open">;
  /** resolves with the first message (already received or to come) that matches; rejects when the socket closes */
  next(
    match: (m: RawSocket["messages"][number]) => boolean,
    timeoutMs?: number,
  ): Promise<RawSocket["messages"][number]>;
  send(message: unknown): void;
  close(): Promise<void>;
}

export interface RawOptions {
  origin?: string;
  cookie?: string;
  /** source address, e.g. 127.0.0.23: each test gets its own "client IP" on the loopback network */
  localAddress?: string;
  headers?: Record<string, string>;
  /**
   * Mask frames with a zero key (valid per RFC 6455, the MASK bit is still set) so the client does not spend seconds
   * XOR-ing a 60 MB message on a loaded machine before its frame header leaves (the server's init timer runs meanwhile).
   */
  zeroMask?: boolean;
}

/** The handshake was answered with an HTTP response instead of the upgrade. */
export class HandshakeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`handshake refused: ${status} ${body}`);
  }
}

const open = new Set<WebSocket>();

/** Open a socket; resolves once it is open, rejects with HandshakeRefused when the server answers with HTTP. */
export function openRaw(url: string, opts: RawOptions = {}): Promise<RawSocket> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  const ws = new WebSocket(url, "graphql-transport-ws", {
    headers,
    ...(opts.origin !== undefined ? { origin: opts.origin } : {}),
    ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
    ...(opts.zeroMask ? { generateMask: (mask: Buffer) => mask.fill(0) } : {}),
  });
  open.add(ws);
  ws.on("error", () => undefined); // a reset after the server closed: the close event tells the test what happened
  const messages: RawSocket["messages"] = [];
  const waiters = new Set<() => void>();
  let closedInfo: { code: number; reason: string } | null = null;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on("close", (code, reason) => {
      open.delete(ws);
      closedInfo = { code, reason: reason.toString() };
      resolve(closedInfo);
      for (const w of waiters) w();
    });
  });
  ws.on("message", (data) => {
    messages.push(JSON.parse(String(data)));
    for (const w of waiters) w();
  });
  const raw: RawSocket = {
    ws,
    messages,
    closed,
    closedWithin(timeoutMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        closed.finally(() => clearTimeout(timer)),
        new Promise<"still open">((resolve) => {
          timer = setTimeout(() => resolve("still open"), timeoutMs);
        }),
      ]);
    },
    next(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found) {
            done();
            resolve(found);
          } else if (closedInfo) {
            done();
            reject(
              new Error(`socket closed (${closedInfo.code} ${closedInfo.reason}) before the message came`),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no matching message within ${timeoutMs} ms: ${JSON.stringify(messages)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    send(message) {
      ws.send(typeof message === "string" ? message : JSON.stringify(message));
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(raw));
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => {
        open.delete(ws);
        reject(new HandshakeRefused(res.statusCode ?? 0, body));
      });
    });
    ws.once("error", (e) => reject(e));
  });
}

/** Open, send connection_init (with these params) and wait for the ack. */
export async function openAcked(
  url: string,
  opts: RawOptions & { params?: Record<string, unknown> } = {},
): Promise<RawSocket> {
  const raw = await openRaw(url, opts);
  raw.send({ type: "connection_init", ...(opts.params ? { payload: opts.params } : {}) });
  await raw.next((m) => m.type === "connection_ack");
  return raw;
}

/** Send connection_init and tell how the server answered: "acknowledged", or how it closed the socket. */
export function initOutcome(
  raw: RawSocket,
  params?: Record<string, unknown>,
): Promise<"acknowledged" | { code: number; reason: string } | "still open"> {
  raw.send({ type: "connection_init", ...(params ? { payload: params } : {}) });
  return raw
    .next((m) => m.type === "connection_ack")
    .then(
      () => "acknowledged" as const,
      () => raw.closedWithin(),
    );
}

/** Close every socket these helpers opened that is still open, and wait until they are closed. */
export async function closeAllRaw(): Promise<void> {
  await Promise.all(
    [...open].map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once("close", () => resolve());
          if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
          else ws.close();
        }),
    ),
  );
}

/** Run `query` over the socket as operation `id` and resolve with its first result or its errors. */
export async function runOperation(
  raw: RawSocket,
  id: string,
  query: string,
): Promise<{ data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }> {
  raw.send({ type: "subscribe", id, payload: { query } });
  const reply = await raw.next((m) => m.id === id && (m.type === "next" || m.type === "error"));
  if (reply.type === "error") return { errors: reply.payload as never };
  return reply.payload as never;
}

let lastOctet = 10;

/** A loopback address no other test in this process uses (the server sees it as the client's IP). */
export function freshLoopbackAddress(): string {
  lastOctet += 1;
  if (lastOctet > 250) throw new Error("out of loopback addresses");
  return `127.0.0.${lastOctet}`;
}
