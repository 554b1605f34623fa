/**
 * Malformed requests at the HTTP edge (paths, bodies, Host, HTTP framing): each is the client's mistake and
 * gets a 4xx in the REST shape { message, code } — never a 500, never an error-level log line — and the server
 * keeps answering /healthz promptly while such requests are in flight.
 */
import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { formatMessage } from "@vidensbank/shared";
import express from "express";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BODY_LIMIT } from "../app";
import { logger } from "../logger";
import { startTestApp, type TestApp } from "../testing/app";
import { loginAdmin } from "../testing/client";
import { type RawResponse, rawGet, rawRequest } from "../testing/raw-http";
import { restErrorHandler } from "./error-handler";
import {
  createHttpServer,
  HEADERS_TIMEOUT_MS,
  isValidHost,
  jsonDepthExceeds,
  MAX_HEADER_BYTES,
  MAX_HOST_LENGTH,
  MAX_JSON_DEPTH,
  REQUEST_TIMEOUT_MS,
} from "./http-edge";

let app: TestApp;
let adminToken: string;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-dist-"));
const errorLogs: unknown[][] = [];

beforeAll(async () => {
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Vidensbank web</title>");
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(path.join(dist, "assets", "app.js"), "console.log('app')");
  app = await startTestApp({ webDist: dist, mail: "outbox" });
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

// Every warn/error/fatal line (and Express's console fallback) during a test is a failure: a client's mistake
// is no server fault.
beforeEach(() => {
  errorLogs.length = 0;
  for (const level of ["warn", "error", "fatal"] as const) {
    vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => {
      errorLogs.push([level, ...args]);
    }) as never);
  }
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errorLogs.push(["console.error", ...args]);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  expect(errorLogs).toEqual([]);
});

const CLIENT_CODES = [
  "BAD_USER_INPUT",
  "NOT_FOUND",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "HEADERS_TOO_LARGE",
  "REQUEST_TIMEOUT",
];

/**
 * /graphql answers a body it cannot read in the GraphQL shape a GraphQL client reads,
 * `{ errors: [{ message, extensions: { code } }] }` (graphql/http-errors.ts); REST answers `{ message, code }`.
 * Both carry the same Danish text and code: this gives the REST view of either.
 */
function restShape(json: unknown, label: string): { message: string; code: string } {
  const graphql = json as { errors?: Array<{ message: string; extensions: { code: string } }> };
  if (!graphql?.errors) return json as { message: string; code: string };
  expect(graphql.errors, label).toHaveLength(1);
  expect(Object.keys(graphql), label).toEqual(["errors"]);
  const [error] = graphql.errors;
  return { message: error.message, code: error.extensions.code };
}

/** A 4xx with exactly { message, code } (REST) or one GraphQL error: a Danish text and a client-error code. */
function expectClientError(res: { status: number; json: unknown }, label: string, status?: number) {
  if (status !== undefined) expect(res.status, label).toBe(status);
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  const body = restShape(res.json, label);
  expect(Object.keys(body ?? {}).sort(), label).toEqual(["code", "message"]);
  expect(CLIENT_CODES, label).toContain(body.code);
  expect(body.message.length, label).toBeGreaterThan(5);
}

async function post(
  target: string,
  body: string | Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${app.url}${target}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: body as BodyInit,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

const gzipBomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20)); // 20 MB of spaces, ~20 KB sent

describe("paths that do not decode", () => {
  it("should answer an invalid %-escape in the web app's routes, static files and probes with 400", async () => {
    for (const p of [
      "/%",
      "/%E0%A4%A",
      "/knowledge/%ZZ",
      "/admin/%",
      "/assets/%ZZ.js",
      "/healthz/%",
      "/%%",
    ]) {
      const res = await rawGet(app.url, p);
      expectClientError(res, p, 400);
      expect(res.json).toEqual({ message: formatMessage("http.badPath"), code: "BAD_USER_INPUT" });
    }
  });

  it("should answer an invalid %-escape in an /api path or route parameter with a 4xx", async () => {
    for (const [method, p] of [
      ["GET", "/api/%E0%A4%A"],
      ["GET", "/api/knowledge/%ZZ"],
      ["DELETE", "/api/admin/users/%E0%A4%A"],
      ["DELETE", "/api/bookmarks/%"],
      ["GET", "/api/chat/sessions/%ZZ"],
    ]) {
      const res = await rawRequest(
        app.url,
        `${method} ${p} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\nConnection: close\r\n\r\n`,
      );
      expectClientError(res, `${method} ${p}`);
    }
  });

  it("should never answer 500 to odd paths that do decode (traversal, NUL, long names, odd methods)", async () => {
    const paths = [
      "/..%2f..%2fetc%2fpasswd",
      "/assets/..%2f..%2f..%2fetc%2fpasswd",
      "/assets/..%5c..%5cindex.html",
      "/%00",
      "/assets/app.js%00.html",
      `/assets/${"n".repeat(5_000)}.js`,
      "//evil.example/",
      "/assets/app.js/",
      "/./././",
      "/api/../../etc/passwd",
      "/%C0%AE%C0%AE/",
    ];
    for (const p of paths) {
      const res = await rawGet(app.url, p);
      expect(res.status, p).toBeGreaterThanOrEqual(200);
      expect(res.status, p).toBeLessThan(500);
      expect(res.text, p).not.toContain("root:");
    }
    const ranged = await rawGet(app.url, "/assets/app.js", ["Range: bytes=999999-"]);
    expect(ranged.status).toBeLessThan(500);
    for (const method of ["OPTIONS", "TRACE", "PROPFIND", "DELETE"]) {
      const res = await rawRequest(
        app.url,
        `${method} /knowledge HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, method).toBeGreaterThanOrEqual(200);
      expect(res.status, method).toBeLessThan(500);
    }
  });

  it("should take a bad %-escape in the query string or a cookie as text, not fail", async () => {
    const q = await rawGet(app.url, "/api/auth/status?x=%ZZ&y=%E0%A4%A");
    expect(q.status).toBe(200);
    const cookie = await rawGet(app.url, "/api/auth/status", ["Cookie: auth_token=%E0%A4%A; x=%"]);
    expect(cookie.status).toBe(200);
    expect(cookie.json).toMatchObject({ isAuthenticated: false });
  });
});

describe("bodies that do not decode", () => {
  const targets = ["/api/auth/login", "/graphql"];
  const json = JSON.stringify({ email: "a@minksekretariatet.dk", password: "x" });
  const half = zlib.gzipSync(Buffer.from(json));

  const cases: Array<[string, Record<string, string>, string | Buffer, number, string]> = [
    ["gzip declared, plain JSON sent", { "content-encoding": "gzip" }, json, 400, "BAD_USER_INPUT"],
    [
      "deflate declared, garbage sent",
      { "content-encoding": "deflate" },
      "garbage!garbage!",
      400,
      "BAD_USER_INPUT",
    ],
    ["br declared, plain JSON sent", { "content-encoding": "br" }, json, 400, "BAD_USER_INPUT"],
    [
      "gzip cut in half",
      { "content-encoding": "gzip" },
      half.subarray(0, half.length >> 1),
      400,
      "BAD_USER_INPUT",
    ],
    ["unknown encoding br2", { "content-encoding": "br2" }, json, 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["two encodings", { "content-encoding": "gzip, br" }, json, 415, "UNSUPPORTED_MEDIA_TYPE"],
    [
      "unknown charset",
      { "content-type": "application/json; charset=klingon" },
      json,
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "gzip bomb over the limit after inflating",
      { "content-encoding": "gzip" },
      gzipBomb,
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    ["broken JSON", {}, '{"email": ', 400, "BAD_USER_INPUT"],
    ["JSON with a trailing comma", {}, '{"email": "a",}', 400, "BAD_USER_INPUT"],
    ["a bare JSON string", {}, '"hej"', 400, "BAD_USER_INPUT"],
    ["arrays nested 65 deep", {}, `{"email":${"[".repeat(65)}${"]".repeat(65)}}`, 400, "BAD_USER_INPUT"],
    [
      "objects nested 150,000 deep",
      {},
      `${'{"a":'.repeat(150_000)}1${"}".repeat(150_000)}`,
      400,
      "BAD_USER_INPUT",
    ],
    [
      "UTF-16 JSON",
      { "content-type": "application/json; charset=utf-16le" },
      Buffer.from(json, "utf16le"),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
  ];

  for (const target of targets) {
    it(`should answer each with its 4xx and code on ${target}`, async () => {
      for (const [label, headers, body, status, code] of cases) {
        const res = await post(target, body, headers);
        expect(Object.hasOwn(res.json as object, "errors"), label).toBe(target === "/graphql");
        expectClientError(res, label, status);
        expect(restShape(res.json, label).code, label).toBe(code);
      }
    });
  }

  it("should refuse JSON nested deeper than MAX_JSON_DEPTH before parsing it, counting no brackets in strings", async () => {
    const deep = await post("/api/auth/login", `{"email":${"[".repeat(1_000_000 - 20)}`, {});
    expect(deep).toEqual({
      status: 400,
      json: { message: formatMessage("http.jsonTooDeep", { max: MAX_JSON_DEPTH }), code: "BAD_USER_INPUT" },
    });
    // brackets inside strings (escaped quotes too) are text: an ordinary failed login
    const password = `"\\"${"[{".repeat(2_000)}`;
    const inString = await post(
      "/api/auth/login",
      `{"email":"a@minksekretariatet.dk","password":${JSON.stringify(password)}}`,
      {},
    );
    expect(inString.status).toBe(401);
    // exactly MAX_JSON_DEPTH levels is fine (and reaches the route's own checks)
    const atLimit = await post(
      "/api/auth/login",
      `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`,
      {},
    );
    expect(atLimit.json).toEqual({
      message: "Ugyldig forespørgsel: forventede et JSON-objekt",
      code: "BAD_USER_INPUT",
    });
    // 4 levels: the outer array, the object, two arrays; the escaped quote does not end the string
    const fourDeep = String.raw`["\"[[[", {"a": [[]]}]`;
    expect(jsonDepthExceeds(Buffer.from(fourDeep), 4)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(fourDeep), 3)).toBe(true);
    expect(jsonDepthExceeds(Buffer.from(String.raw`["\\", [[[]]]]`), 3)).toBe(true);
    expect(jsonDepthExceeds(Buffer.from(`["æøå [[[[", [[]]]`), 3)).toBe(false);
  });

  it("should refuse a gzip bomb once the inflated body passes the body limit", async () => {
    // BODY_LIMIT counts inflated bytes: a small gzip that inflates past it is refused like a large body
    expect(BODY_LIMIT).toBe("1mb");
    expect(gzipBomb.length).toBeLessThan(1024 * 1024);
    const res = await post("/api/auth/login", gzipBomb, { "content-encoding": "gzip" });
    expect(res).toEqual({
      status: 413,
      json: { message: "Forespørgslen er for stor", code: "PAYLOAD_TOO_LARGE" },
    });
  });

  it("should refuse the wrong Content-Type with a 4xx", async () => {
    const json = JSON.stringify({ email: "a@minksekretariatet.dk", password: "x" });
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await post("/api/auth/login", json, { "content-type": type });
      expectClientError(res, type, 400);
      const g = await post("/graphql", json, { "content-type": type });
      expect(g.status, type).toBe(400);
    }
  });

  it("should survive a client that aborts mid-body", async () => {
    await rawRequest(
      app.url,
      [
        "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
          "Content-Length: 1000\r\n\r\n",
        '{"email": "a@',
      ],
      { gapMs: 20, timeoutMs: 200 },
    );
    await new Promise((r) => setTimeout(r, 100));
    expect((await rawGet(app.url, "/healthz")).status).toBe(200);
  });
});

describe("the Host header", () => {
  it("should refuse an invalid Host with 400", async () => {
    const hosts = [
      "a b",
      "",
      "æøå.dk",
      "x".repeat(MAX_HOST_LENGTH + 1),
      "evil.example/path",
      "user@evil.example",
      "evil.example:80:80",
      "evil.example:port",
      "[::1",
      "evil\texample",
    ];
    for (const host of hosts) {
      const res = await rawGet(app.url, "/api/auth/status", [`Host: ${host}`]);
      expectClientError(res, `Host: ${JSON.stringify(host.slice(0, 30))}`, 400);
      expect(res.json.message).toBe(formatMessage("http.badHost"));
    }
  });

  it("should refuse a repeated Host with 400", async () => {
    const res = await rawGet(app.url, "/api/auth/status", ["Host: localhost", "Host: evil.example"]);
    expectClientError(res, "two Host headers", 400);
  });

  it("should refuse a Host over the header size limit with 431", async () => {
    const res = await rawGet(app.url, "/api/auth/status", [`Host: ${"x".repeat(MAX_HEADER_BYTES)}`]);
    expectClientError(res, "huge Host", 431);
  });

  it("should accept every valid form of Host", async () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "127.0.0.1:8080",
      "[::1]:3000",
      "vidensbank.example.dk",
      "a-b_c.dk:",
    ]) {
      const res = await rawGet(app.url, "/api/auth/status", [`Host: ${host}`]);
      expect(res.status, host).toBe(200);
    }
    // HTTP/1.0 may leave Host out
    const old = await rawRequest(app.url, "GET /healthz HTTP/1.0\r\n\r\n");
    expect(old.status).toBe(200);
    expect(isValidHost("x".repeat(MAX_HOST_LENGTH))).toBe(true);
  });
});

describe("HTTP the parser refuses", () => {
  it("should answer malformed HTTP with 400 in the REST shape, not a reset socket", async () => {
    const requests = [
      "HELLO WORLD\r\n\r\n",
      "GET / HTTP/9.9\r\nHost: localhost\r\n\r\n",
      "GET /healthz HTTP/1.1\r\nHost: localhost\r\nBad Header Name: x\r\n\r\n",
      "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n",
      // request smuggling shape: both framings
      "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX: a\u0001b\r\n\r\n",
    ];
    for (const req of requests) {
      const res = await rawRequest(app.url, req);
      expectClientError(res, JSON.stringify(req.slice(0, 40)), 400);
      expect(res.json.message).toBe(formatMessage("http.malformedHttp"));
      expect(res.headers.connection).toBe("close");
    }
  });

  it("should answer a broken chunked body with a 4xx", async () => {
    const res = await rawRequest(
      app.url,
      "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
        "Transfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n",
    );
    expectClientError(res, "bad chunk size", 400);
  });

  it("should answer an over-long URL and too many headers with 431 in the REST shape", async () => {
    const longUrl = await rawGet(app.url, `/api/knowledge/search?q=${"a".repeat(MAX_HEADER_BYTES + 10)}`);
    expectClientError(longUrl, "long URL", 431);
    expect(longUrl.json.code).toBe("HEADERS_TOO_LARGE");
    const many = await rawGet(
      app.url,
      "/healthz",
      Array.from({ length: 3000 }, (_, i) => `X-Header-${i}: v`),
    );
    expectClientError(many, "many headers", 431);
  });
});

describe("the HTTP server's limits", () => {
  it("should set named timeouts on the app's server", () => {
    const server = createHttpServer(() => undefined);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS);
  });

  describe("with short timeouts", () => {
    let server: http.Server;
    let url: string;
    beforeAll(async () => {
      const small = express();
      small.post("/echo", express.json({ limit: BODY_LIMIT }), (req, res) => {
        res.json(req.body);
      });
      small.use(restErrorHandler);
      server = createHttpServer(small, {
        headersTimeoutMs: 300,
        requestTimeoutMs: 600,
        timeoutCheckIntervalMs: 50,
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });

    it("should answer headers sent too slowly (slow-loris) with 408 in the REST shape", async () => {
      const started = Date.now();
      const res: RawResponse = await rawRequest(
        url,
        ["GET /echo HTTP/1.1\r\n", "Host: localhost\r\n", "X-A: 1\r\n", "X-B: 2\r\n", "X-C: 3\r\n", "\r\n"],
        { gapMs: 200, timeoutMs: 5_000 },
      );
      expectClientError(res, "slow headers", 408);
      expect(res.json).toEqual({ message: formatMessage("http.timeout"), code: "REQUEST_TIMEOUT" });
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it("should answer a body sent too slowly with 408", async () => {
      const body = JSON.stringify({ a: "x".repeat(40) });
      const chunks = [
        `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        ...body.match(/.{1,8}/g)!,
      ];
      const res = await rawRequest(url, chunks, { gapMs: 150, timeoutMs: 5_000 });
      expectClientError(res, "slow body", 408);
    });

    it("should still answer a prompt request", async () => {
      const res = await fetch(`${url}/echo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"a":1}',
      });
      expect(await res.json()).toEqual({ a: 1 });
    });
  });
});

describe("liveness under hostile requests", () => {
  it("should answer /healthz within 100 ms while gzip bombs, deep JSON and slow bodies are in flight", async () => {
    // warm the connection pool so the probes measure the server, not the first TCP handshake
    await fetch(`${app.url}/healthz`).then((r) => r.text());
    const slowBody = (target: string) =>
      rawRequest(
        app.url,
        [
          `POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
          ...Array.from({ length: 30 }, () => '{"a":'),
        ],
        { gapMs: 30, timeoutMs: 1_500 },
      );
    const bombs = Array.from({ length: 3 }, () =>
      fetch(`${app.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: gzipBomb as BodyInit,
      }).then((r) => r.status),
    );
    const deepJson = Array.from({ length: 2 }, () =>
      fetch(`${app.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `${"[".repeat(500_000)}${"]".repeat(500_000)}`,
      }).then((r) => r.status),
    );
    const hostile = Promise.all([slowBody("/api/auth/login"), slowBody("/graphql"), ...bombs, ...deepJson]);
    const timings: number[] = [];
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      const res = await fetch(`${app.url}/healthz`);
      await res.text();
      timings.push(performance.now() - started);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 40));
    }
    // Parsing a bomb or a deep document on the event loop would hold every probe for seconds. One probe of eight
    // met a busy test machine (160 ms at 4 test files in flight on 2 cores): the median is held to 100 ms, the
    // slowest to 500 ms.
    const shown = timings.map((t) => t.toFixed(1)).join(", ");
    expect([...timings].sort((a, b) => a - b)[4], shown).toBeLessThan(100);
    expect(Math.max(...timings), shown).toBeLessThan(500);
    const [, , ...refused] = await hostile;
    expect(refused).toEqual([413, 413, 413, 400, 400]);
  });
});
