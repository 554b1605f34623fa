/**
 * The HTTP edge: what reaches the server before any route runs. Malformed HTTP, an invalid Host, a path or body
 * that does not decode: each is the client's mistake and gets a 4xx in the REST shape { message, code } — never
 * a 500, never a stack trace in the log. Node's own limits (header size, slow clients) are set here as named
 * constants instead of being left to the defaults of whichever Node version runs the app.
 */
import http from "node:http";
import type { Duplex } from "node:stream";
import { formatMessage, type MessageKey } from "@vidensbank/shared";
import express, { type Request, type RequestHandler } from "express";
import { AppError, type ErrorCode, Errors, statusForCode } from "../errors";
import { logger } from "../logger";

/** Request line + headers, in bytes (Node's default, stated so an upgrade cannot change it): 431 above. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** A client must send its complete headers within this time (slow-loris): 408 after. */
export const HEADERS_TIMEOUT_MS = 15_000;
/**
 * A client must send its whole request (headers and body, at most BODY_LIMIT) within this time: 408 after.
 * Generous for a 1 MB body on a slow line; the answer (a chat stream) is not limited by it.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
/** How often Node checks the two timeouts above (its default, 30 s, would let them run 30 s late). */
export const TIMEOUT_CHECK_INTERVAL_MS = 5_000;
/**
 * How long an idle keep-alive connection stays open. Longer than the reverse proxy's upstream keep-alive
 * (deploy/nginx.conf: 60 s; cloud load balancers default to 60 s as well), so the proxy always closes first:
 * with Node's 5 s default the server could close a connection just as the proxy sends a request on it, and that
 * request fails with a reset. Idle sockets cost a few kB each; connection count is bounded by the proxy.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 75_000;
/** A DNS name has at most 253 characters; a port adds at most ":65535". */
export const MAX_HOST_LENGTH = 253 + ":65535".length;
/**
 * The deepest nesting of arrays and objects in a JSON body. The app's own bodies nest a few levels; a 1 MB
 * body of brackets would keep JSON.parse busy for most of a second (500,000 levels: ~0.8 s), stalling every
 * other request, so it is refused before parsing.
 */
export const MAX_JSON_DEPTH = 64;

export interface HttpServerLimits {
  maxHeaderBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  timeoutCheckIntervalMs: number;
  keepAliveTimeoutMs: number;
}

export const HTTP_SERVER_LIMITS: HttpServerLimits = {
  maxHeaderBytes: MAX_HEADER_BYTES,
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  timeoutCheckIntervalMs: TIMEOUT_CHECK_INTERVAL_MS,
  keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
};

/** The app's HTTP server with the limits above (tests may shorten them) and a JSON answer to malformed HTTP. */
export function createHttpServer(
  handler: http.RequestListener,
  overrides: Partial<HttpServerLimits> = {},
): http.Server {
  const limits = { ...HTTP_SERVER_LIMITS, ...overrides };
  const server = http.createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    handler,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.on("clientError", answerClientError);
  return server;
}

function rawResponse(code: ErrorCode, key: MessageKey): string {
  const body = JSON.stringify({ message: formatMessage(key), code });
  const status = statusForCode(code);
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Cache-Control: no-store\r\nConnection: close\r\n\r\n" +
    body
  );
}

// Built once: these answers never vary.
const CLIENT_ERROR_RESPONSES = {
  headersTooLarge: rawResponse("HEADERS_TOO_LARGE", "http.headersTooLarge"),
  timeout: rawResponse("REQUEST_TIMEOUT", "http.timeout"),
  malformed: rawResponse("BAD_USER_INPUT", "http.malformedHttp"),
};

/**
 * HTTP that Node's parser refuses (bad request line, bad header, headers over MAX_HEADER_BYTES, a client too
 * slow): there is no request object, so answer on the socket — as Node's default does, but in the REST shape —
 * and close it. Logged at debug: the client's mistake, not the server's.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const code = err.code ?? "";
  // a connection reset or a socket already answering: nothing can be sent
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const response =
    code === "HPE_HEADER_OVERFLOW"
      ? CLIENT_ERROR_RESPONSES.headersTooLarge
      : code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? CLIENT_ERROR_RESPONSES.timeout
        : CLIENT_ERROR_RESPONSES.malformed;
  logger.debug({ code, reason: err.message }, "malformed HTTP request refused");
  socket.end(response, () => socket.destroy());
}

/**
 * express.json() with the body limit, UTF-8 only (RFC 8259 §8.1) and nesting at most MAX_JSON_DEPTH — both
 * checked on the raw bytes before JSON.parse runs. Refusals reach the error handler like body-parser's own.
 */
/**
 * Answers of the API (REST and GraphQL) are one user's data: no browser or shared cache keeps them (a GraphQL GET
 * query, allowed with a preflight header, would otherwise be cacheable).
 */
export const privateAnswers: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

export function jsonBody(limit: string): RequestHandler {
  return express.json({
    limit,
    verify: (_req, _res, buf, encoding) => {
      if (encoding !== "utf-8") throw edgeError("charset.unsupported");
      if (jsonDepthExceeds(buf, MAX_JSON_DEPTH)) throw edgeError("entity.too.deep");
    },
  });
}

function edgeError(type: string): Error {
  return Object.assign(new Error(type), { type });
}

/** true when arrays/objects in this UTF-8 JSON nest deeper than max (brackets inside strings do not count). */
export function jsonDepthExceeds(buf: Uint8Array, max: number): boolean {
  if (buf.length <= max) return false; // too short to open max + 1 levels
  let depth = 0;
  let inString = false;
  // UTF-8 continuation bytes are all >= 0x80: no multi-byte character hides a quote or a bracket
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

// RFC 3986 host: an IP literal in brackets, or a reg-name (IPv4 is one) of unreserved, sub-delims and
// %-escapes; then an optional port. Anything else (spaces, non-ASCII, '/', '@') is invalid (RFC 9112 §3.2: 400).
const HOST_RE =
  /^(?:\[[0-9A-Fa-f:.]+(?:%25[0-9A-Za-z._~-]+)?\]|(?:[0-9A-Za-z._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+)(?::[0-9]{0,5})?$/;

/** true when the Host header is a syntactically valid host[:port]. */
export function isValidHost(host: string): boolean {
  return host.length > 0 && host.length <= MAX_HOST_LENGTH && HOST_RE.test(host);
}

/**
 * Refuse a request whose Host header is invalid or repeated (RFC 9112 §3.2 requires a 400). HTTP/1.0 may omit
 * Host; Node itself refuses an HTTP/1.1 request without one.
 */
export const requireValidHost: RequestHandler = (req, _res, next) => {
  const host = req.headers.host;
  if (host === undefined) return next();
  if (!isValidHost(host) || hostHeaderCount(req.rawHeaders) > 1) return next(Errors.badInput("http.badHost"));
  next();
};

function hostHeaderCount(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === "host") n += 1;
  }
  return n;
}

interface HttpErrorLike {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
}

/**
 * The client's mistake behind an error from Express's own layers — body-parser / raw-body (`type`), the
 * router decoding a path (URIError), zlib inflating a body: an http-errors error with a 4xx `status` — as an
 * AppError; null for anything else (a server fault). Errors of other libraries that merely carry a `status`
 * (an upstream API's 400) are not the client's and stay server faults: http-errors sets `expose`.
 */
export function clientErrorOf(err: unknown): AppError | null {
  if (!(err instanceof Error)) return null;
  const e = err as Error & HttpErrorLike;
  const status = typeof e.status === "number" ? e.status : e.statusCode;
  if (typeof status !== "number" || status < 400 || status > 499) return null;
  // the router sets status 400 on a URIError from decodeURIComponent (an invalid %-escape in the path)
  if (err instanceof URIError) return Errors.badInput("http.badPath");
  if (typeof e.expose !== "boolean") return null;
  switch (e.type) {
    case "entity.too.large":
      return Errors.payloadTooLarge();
    case "entity.parse.failed":
      return Errors.badInput("http.invalidJson");
    case "entity.too.deep":
      return Errors.badInput("http.jsonTooDeep", { max: MAX_JSON_DEPTH });
    case "encoding.unsupported":
      return new AppError("UNSUPPORTED_MEDIA_TYPE", "http.encodingUnsupported");
    case "charset.unsupported":
      return new AppError("UNSUPPORTED_MEDIA_TYPE", "http.charsetUnsupported");
    case "request.size.invalid":
      return Errors.badInput("http.sizeMismatch");
    case "request.aborted":
      return Errors.badInput("http.aborted");
  }
  // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR, …): the body is not what its Content-Encoding says
  if (typeof e.code === "string" && e.code.startsWith("Z_")) {
    return Errors.badInput("http.bodyNotEncodedAsDeclared");
  }
  switch (status) {
    case 404:
      return Errors.notFound();
    case 408:
      return new AppError("REQUEST_TIMEOUT", "http.timeout");
    case 413:
      return Errors.payloadTooLarge();
    case 415:
      return new AppError("UNSUPPORTED_MEDIA_TYPE", "http.unsupportedMediaType");
    case 431:
      return new AppError("HEADERS_TOO_LARGE", "http.headersTooLarge");
    default:
      return Errors.badInput("http.badRequest");
  }
}

/** One debug line for a refused request: what and why, no stack (the client's mistake). */
export function logClientError(req: Request, err: unknown, appError: AppError): void {
  if (!logger.isLevelEnabled("debug")) return;
  const e = err as HttpErrorLike & { name?: string };
  logger.debug(
    {
      method: req.method,
      url: req.originalUrl.slice(0, 200),
      status: appError.status,
      code: appError.code,
      reason: typeof e.type === "string" ? e.type : typeof e.code === "string" ? e.code : e?.name,
    },
    "request refused",
  );
}
