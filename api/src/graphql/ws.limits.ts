/**
 * Limits for graphql-ws connections. A websocket lives long and can be opened with the ambient auth_token
 * cookie, so the HTTP protections (the 1 MB body limit, per-request work, SameSite cookies) do not carry over by
 * themselves: each limit here restores one of them for sockets. See ws.ts for where each one is applied.
 */
import type { IncomingMessage } from "node:http";
import { formatMessage, type MessageKey, type MessageParams } from "@vidensbank/shared";
import { GraphQLError } from "graphql";
import type { ErrorCode } from "../errors";

/**
 * Largest websocket message in bytes: the HTTP body limit (BODY_LIMIT "1mb" in app.ts = 1,048,576 bytes). `ws`
 * checks it against the length in each frame header (and the running total of a fragmented message), so a larger
 * message is refused before it is buffered or parsed, and the socket is closed with 1009 (Message Too Big).
 */
export const WS_MAX_PAYLOAD_BYTES = 1024 * 1024;
/**
 * After a message over the limit (or a malformed frame) the server stops reading from that socket at once and
 * drops the connection this long after its close frame (1009), instead of reading and discarding the rest.
 */
export const WS_BAD_MESSAGE_LINGER_MS = 1_000;
/** A socket that has not sent connection_init by then is closed with 4408 (graphql-ws's default, pinned here). */
export const WS_CONNECTION_INIT_TIMEOUT_MS = 3_000;
/**
 * Sockets from one client IP not tied to a user: still waiting for connection_init, or acknowledged without a
 * token. Signed-in sockets count per user instead, so an office behind one address is not limited by this.
 */
export const MAX_UNAUTHENTICATED_SOCKETS_PER_IP = 64;
/** Open sockets per signed-in user (every browser tab holds one). */
export const MAX_SOCKETS_PER_USER = 20;
/** Operations in flight on one socket: live subscriptions plus queries and mutations still running. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 10;

/** The message was larger than WS_MAX_PAYLOAD_BYTES (standard code, sent by `ws`). */
export const WS_CLOSE_MESSAGE_TOO_BIG = 1009;
/** graphql-ws's Forbidden: a token that is not valid, or the cookie from an origin that is not allowed. */
export const WS_CLOSE_FORBIDDEN = 4403;
/**
 * The user already has MAX_SOCKETS_PER_USER sockets open. 4000 + 290 reads as HTTP 429 but is not graphql-ws's
 * own 4429, which means "Too many initialisation requests" (a client sending connection_init twice).
 */
export const WS_CLOSE_TOO_MANY_SOCKETS = 4290;

/** Close reasons in Danish (catalogue keys ws.*); they must stay within the 123 bytes (UTF-8) a close frame allows. */
export const wsCloseReasons = {
  tooManySockets: (max = MAX_SOCKETS_PER_USER) => formatMessage("ws.tooManySockets", { max }),
  originRefused: () => formatMessage("ws.originRefused"),
};

/** An error a limit here produces: passed to the client as it is (its message, code and key are already final). */
export class WsLimitError extends GraphQLError {
  constructor(code: ErrorCode, key: MessageKey, params: MessageParams = {}) {
    super(formatMessage(key, params), { extensions: { code, messageKey: key, messageParams: params } });
  }
}

export function tooManySubscriptionsError(max = MAX_SUBSCRIPTIONS_PER_SOCKET): WsLimitError {
  return new WsLimitError("TOO_MANY_REQUESTS", "ws.tooManySubscriptions", { max });
}

/** The handshake refusal body for a client IP over its limit: the REST error shape. */
export function tooManyUnauthenticatedBody(max = MAX_UNAUTHENTICATED_SOCKETS_PER_IP): string {
  return JSON.stringify({
    message: formatMessage("ws.tooManyUnauthenticated", { max }),
    code: "TOO_MANY_REQUESTS",
  });
}

/** The origins whose pages may use the auth_token cookie on a websocket: APP_URL's and ALLOWED_ORIGINS. */
export function allowedOrigins(config: { appUrl: string; allowedOrigins: readonly string[] }): Set<string> {
  return new Set([new URL(config.appUrl).origin, ...config.allowedOrigins]);
}

/**
 * Whether the handshake's Origin header is one of `allowed`, compared as the exact string browsers send
 * (scheme://host[:port], lower case, no default port). A missing Origin (non-browser clients) and the opaque
 * "null" origin (sandboxed frames, file: pages) are never allowed.
 */
export function isAllowedOrigin(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  return origin !== undefined && origin !== "null" && allowed.has(origin);
}

/**
 * The client's address the way Express computes req.ip with `trust proxy` = trustProxyHops (TRUST_PROXY): the
 * address that many hops back, walking X-Forwarded-For from the right. With 0 hops the header is ignored, so a
 * client cannot pick its own address to dodge the per-IP limit.
 */
export function clientIp(req: Pick<IncomingMessage, "headers" | "socket">, trustProxyHops: number): string {
  const remote = req.socket.remoteAddress ?? "unknown";
  if (trustProxyHops <= 0) return remote;
  const header = req.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const chain = [remote, ...forwarded];
  return chain[Math.min(trustProxyHops, chain.length - 1)] as string;
}

interface SocketEntry {
  ip: string;
  /** null while not signed in (waiting for connection_init, or anonymous) */
  userId: string | null;
}

/**
 * Who holds which open socket: unauthenticated ones counted per client IP, signed-in ones per user. Counts change
 * only in synchronous steps (open, sign-in, close), so concurrent handshakes cannot overshoot a limit.
 */
export class SocketRegistry<S extends object> {
  private readonly entries = new Map<S, SocketEntry>();
  private readonly unauthenticatedPerIp = new Map<string, number>();
  private readonly perUser = new Map<string, Set<S>>();

  constructor(
    private readonly limits: { unauthenticatedPerIp: number; perUser: number } = {
      unauthenticatedPerIp: MAX_UNAUTHENTICATED_SOCKETS_PER_IP,
      perUser: MAX_SOCKETS_PER_USER,
    },
  ) {}

  /** May one more unauthenticated socket be opened from this address? */
  mayOpen(ip: string): boolean {
    return (this.unauthenticatedPerIp.get(ip) ?? 0) < this.limits.unauthenticatedPerIp;
  }

  opened(socket: S, ip: string): void {
    if (this.entries.has(socket)) return;
    this.entries.set(socket, { ip, userId: null });
    this.unauthenticatedPerIp.set(ip, (this.unauthenticatedPerIp.get(ip) ?? 0) + 1);
  }

  /**
   * Move a socket from its IP's count to its user's. "closed": the socket went away while its token was being
   * checked; "too-many": the user already holds the maximum (the socket stays counted as unauthenticated).
   */
  signIn(socket: S, userId: string): "ok" | "closed" | "too-many" {
    const entry = this.entries.get(socket);
    if (!entry) return "closed";
    if (entry.userId !== null) return "ok";
    const own = this.perUser.get(userId) ?? new Set<S>();
    if (own.size >= this.limits.perUser) return "too-many";
    own.add(socket);
    this.perUser.set(userId, own);
    this.releaseIp(entry.ip);
    entry.userId = userId;
    return "ok";
  }

  closed(socket: S): void {
    const entry = this.entries.get(socket);
    if (!entry) return;
    this.entries.delete(socket);
    if (entry.userId === null) {
      this.releaseIp(entry.ip);
      return;
    }
    const own = this.perUser.get(entry.userId);
    own?.delete(socket);
    if (own?.size === 0) this.perUser.delete(entry.userId);
  }

  /** The open sockets of one user (a live view: copy before closing sockets while iterating). */
  socketsOf(userId: string): ReadonlySet<S> {
    return this.perUser.get(userId) ?? new Set();
  }

  /** For tests and diagnostics. */
  counts(): { unauthenticatedPerIp: Record<string, number>; perUser: Record<string, number> } {
    return {
      unauthenticatedPerIp: Object.fromEntries(this.unauthenticatedPerIp),
      perUser: Object.fromEntries([...this.perUser].map(([user, set]) => [user, set.size])),
    };
  }

  private releaseIp(ip: string): void {
    const left = (this.unauthenticatedPerIp.get(ip) ?? 1) - 1;
    if (left > 0) this.unauthenticatedPerIp.set(ip, left);
    else this.unauthenticatedPerIp.delete(ip);
  }
}
