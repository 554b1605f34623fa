/**
 * Websocket (graphql-ws) abuse: oversized messages, sockets that never sign in, too many sockets or
 * subscriptions, and cross-site websocket hijacking with the auth_token cookie. Each attack is sent by a real
 * websocket client to the whole server (startTestApp); each limit also has a test that ordinary use still works.
 */
import { Worker } from "node:worker_threads";
import { formatMessage } from "@vidensbank/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql } from "../testing/client";
import {
  MAX_SOCKETS_PER_USER,
  MAX_SUBSCRIPTIONS_PER_SOCKET,
  MAX_UNAUTHENTICATED_SOCKETS_PER_IP,
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_MESSAGE_TOO_BIG,
  WS_CLOSE_TOO_MANY_SOCKETS,
  WS_CONNECTION_INIT_TIMEOUT_MS,
  WS_MAX_PAYLOAD_BYTES,
} from "./ws.limits";
import {
  closeAllRaw,
  freshLoopbackAddress,
  HandshakeRefused,
  initOutcome,
  openAcked,
  openRaw,
  type RawSocket,
  runOperation,
} from "./ws.test-helpers";

const PARTNER_ORIGIN = "https://vidensbank.example.dk";
const MB = 1024 * 1024;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ mail: "outbox", config: { allowedOrigins: [PARTNER_ORIGIN] } });
});
afterEach(async () => {
  await closeAllRaw();
});
afterAll(async () => {
  await app?.close();
});

/** A graphql-ws message of about `bytes` bytes: `message` with a string of padding in its payload. */
function padded(
  message: { type: string; id?: string; payload?: Record<string, unknown> },
  bytes: number,
): string {
  const shell = JSON.stringify({ ...message, payload: { ...message.payload, pad: "" } });
  return JSON.stringify({
    ...message,
    payload: { ...message.payload, pad: "a".repeat(bytes - shell.length) },
  });
}

async function expectHealthy(): Promise<void> {
  const res = await fetch(`${app.url}/healthz`);
  expect(res.status).toBe(200);
}

describe("message size", () => {
  it("should close with 1009 an anonymous 60 MB message sent before connection_init, without parsing it", async () => {
    // built before the socket opens: the server's 3 s connection_init timer starts at the upgrade
    const message = padded({ type: "connection_init" }, 60 * MB);
    const raw = await openRaw(app.wsUrl, { zeroMask: true });
    raw.ws.send(message);
    expect(await raw.closedWithin()).toMatchObject({ code: WS_CLOSE_MESSAGE_TOO_BIG });
    expect(raw.messages).toEqual([]); // never acknowledged: it was not read
    await expectHealthy();
  });

  it.each([
    ["one byte over the limit, after a signed-in ack", WS_MAX_PAYLOAD_BYTES + 1, "text"],
    ["a 2 MB binary frame", 2 * MB, "binary"],
    ["a message of 20 fragments of 64 KB, each under the limit", 20 * 64 * 1024, "fragments"],
  ] as const)("should close with 1009 %s", async (_name, bytes, kind) => {
    const { token } = await createVerifiedUser(app);
    const raw = await openAcked(app.wsUrl, { params: { authToken: token } });
    const message = padded(
      { type: "subscribe", id: "1", payload: { query: "{ __typename }", variables: {} } },
      bytes,
    );
    if (kind === "text") raw.ws.send(message);
    if (kind === "binary") raw.ws.send(Buffer.from(message), { binary: true });
    if (kind === "fragments") {
      const chunk = 64 * 1024;
      for (let at = 0; at < message.length; at += chunk) {
        raw.ws.send(message.slice(at, at + chunk), { fin: at + chunk >= message.length });
      }
    }
    expect(await raw.closedWithin()).toMatchObject({ code: WS_CLOSE_MESSAGE_TOO_BIG });
    expect(raw.messages.filter((m) => m.id === "1")).toEqual([]);
    await expectHealthy();
  });

  it("should accept messages up to the limit (the same 1 MB as an HTTP body)", async () => {
    const { token, user } = await createVerifiedUser(app);
    const raw = await openRaw(app.wsUrl);
    raw.send(padded({ type: "connection_init", payload: { authToken: token } }, WS_MAX_PAYLOAD_BYTES));
    await raw.next((m) => m.type === "connection_ack");
    raw.send(
      padded(
        { type: "subscribe", id: "me", payload: { query: "{ me { id } }", variables: {} } },
        WS_MAX_PAYLOAD_BYTES - 1024,
      ),
    );
    const reply = await raw.next((m) => m.id === "me" && m.type === "next");
    expect(reply.payload).toEqual({ data: { me: { id: user.id } } });
  });
});

/**
 * Two worker threads, so that neither the attack nor the measuring runs on the server's event loop: the attacker
 * opens sockets and sends 60 MB messages that are expensive to parse (millions of array elements), one before
 * connection_init and two after an anonymous ack; the prober sends GET /healthz back to back and reports each
 * answer's time.
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
if (workerData.role === "attacker") {
  const WebSocket = require("ws");
  const elements = workerData.bytes / 2;
  const zeros = "0,".repeat(elements) + "0";
  const bodies = {
    init: Buffer.from('{"type":"connection_init","payload":{"p":[' + zeros + ']}}'),
    subscribe: Buffer.from('{"type":"subscribe","id":"1","payload":{"query":"{ __typename }","variables":{"p":[' + zeros + ']}}}'),
  };
  const attack = (type) => new Promise((resolve) => {
    // an all-zero mask: ws then skips masking, so the attacker's own CPU use does not slow the machine down
    const ws = new WebSocket(workerData.url, "graphql-transport-ws", { generateMask: (mask) => mask.fill(0) });
    const data = bodies[type];
    // on a server that accepts the message, give up a while after it has been sent
    const fire = () => ws.send(data, () => setTimeout(() => { ws.terminate(); resolve("still open"); }, 5000).unref());
    ws.on("open", () => (type === "init" ? fire() : ws.send('{"type":"connection_init"}')));
    ws.on("message", (m) => { if (String(m).includes("connection_ack") && type !== "init") fire(); });
    ws.on("close", (code) => resolve(code));
    ws.on("error", () => undefined);
  });
  parentPort.postMessage({ armed: true });
  parentPort.once("message", () => {
    Promise.all([attack("init"), attack("subscribe"), attack("subscribe")]).then((codes) => parentPort.postMessage({ codes }));
  });
} else {
  let stop = false;
  const times = [];
  parentPort.on("message", () => { stop = true; });
  (async () => {
    while (!stop) {
      const started = performance.now();
      const res = await fetch(workerData.url);
      await res.text();
      times.push({ at: Date.now(), ms: performance.now() - started, status: res.status });
      if (times.length === 5) parentPort.postMessage({ ready: true });
      // a short pause, so the prober does not take a whole core from the server: a stall longer than this still
      // shows in the next request
      await new Promise((r) => setTimeout(r, 10));
    }
    parentPort.postMessage({ times });
  })();
}
`;

function startWorker(data: Record<string, unknown>): {
  worker: Worker;
  messages: AsyncIterableIterator<unknown>;
} {
  const worker = new Worker(WORKER, { eval: true, workerData: data });
  const queue: unknown[] = [];
  let wake: (() => void) | null = null;
  worker.on("message", (m) => {
    queue.push(m);
    wake?.();
  });
  const messages = (async function* () {
    for (;;) {
      while (queue.length) yield queue.shift();
      await new Promise<void>((r) => {
        wake = r;
      });
      wake = null;
    }
  })();
  return { worker, messages };
}

async function nextMatching<T>(it: AsyncIterableIterator<unknown>, key: string): Promise<T> {
  for (;;) {
    const { value } = await it.next();
    if (value && typeof value === "object" && key in value) return value as T;
  }
}

describe("availability under a 60 MB message attack", () => {
  /**
   * The machine the tests run on is shared (2 cores, often 7 test runs beside this one): without any attack at
   * all a single /healthz answer there now and then takes a few hundred ms. So the test asks that 95% of the
   * answers come within 100 ms and that none stalls for 500 ms, and it is retried; a server that reads or parses
   * the 60 MB messages stalls for seconds and fails every attempt.
   */
  it("should answer GET /healthz within 100 ms while the attack is in flight", { retry: 2 }, async () => {
    const prober = startWorker({ role: "prober", url: `${app.url}/healthz` });
    const attacker = startWorker({ role: "attacker", url: app.wsUrl, bytes: 60 * MB });
    let codes: unknown[];
    let times: Array<{ at: number; ms: number; status: number }>;
    const attackStarted = Date.now();
    try {
      await Promise.all([nextMatching(prober.messages, "ready"), nextMatching(attacker.messages, "armed")]);
      attacker.worker.postMessage("go");
      ({ codes } = await nextMatching<{ codes: unknown[] }>(attacker.messages, "codes"));
      await new Promise((r) => setTimeout(r, 300)); // and a little longer: a server might still be parsing
      prober.worker.postMessage("stop");
      ({ times } = await nextMatching<{ times: typeof times }>(prober.messages, "times"));
    } finally {
      await Promise.all([prober.worker.terminate(), attacker.worker.terminate()]);
    }

    const during = times.filter((t) => t.at >= attackStarted);
    expect(during.length).toBeGreaterThan(10);
    expect(during.every((t) => t.status === 200)).toBe(true);
    const ms = during.map((t) => t.ms).sort((a, b) => a - b);
    const p95 = ms[Math.floor(ms.length * 0.95)] as number;
    const slowest = ms[ms.length - 1] as number;
    const series = during.map((t) => `${t.at - attackStarted}:${Math.round(t.ms)}`).join(" ");
    expect(p95, `95th percentile; answers (ms since the attack began:ms taken): ${series}`).toBeLessThan(100);
    expect(slowest, `slowest; answers (ms since the attack began:ms taken): ${series}`).toBeLessThan(500);
    expect(codes).toEqual([WS_CLOSE_MESSAGE_TOO_BIG, WS_CLOSE_MESSAGE_TOO_BIG, WS_CLOSE_MESSAGE_TOO_BIG]);
  });
});

describe("before a socket signs in", () => {
  it("should close a socket that never sends connection_init with 4408, pings or not", async () => {
    const silent = await openRaw(app.wsUrl);
    const pinging = await openRaw(app.wsUrl);
    const started = performance.now();
    const pinger = setInterval(() => pinging.send({ type: "ping" }), 200);
    try {
      const [a, b] = await Promise.all([silent.closedWithin(), pinging.closedWithin()]);
      const elapsed = performance.now() - started;
      expect(a).toMatchObject({ code: 4408 });
      expect(b).toMatchObject({ code: 4408 });
      expect(elapsed).toBeGreaterThan(WS_CONNECTION_INIT_TIMEOUT_MS - 200);
      expect(elapsed).toBeLessThan(WS_CONNECTION_INIT_TIMEOUT_MS + 2_000);
    } finally {
      clearInterval(pinger);
    }
  });

  it("should refuse the handshake with 429 past the per-IP limit of sockets not signed in", async () => {
    const ip = freshLoopbackAddress();
    // half waiting for connection_init, half acknowledged without a token: both count
    const half = MAX_UNAUTHENTICATED_SOCKETS_PER_IP / 2;
    await Promise.all(Array.from({ length: half }, () => openAcked(app.wsUrl, { localAddress: ip })));
    const waiting = await Promise.all(
      Array.from({ length: half }, () => openRaw(app.wsUrl, { localAddress: ip })),
    );

    const refused = await openRaw(app.wsUrl, { localAddress: ip }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HandshakeRefused);
    expect((refused as HandshakeRefused).status).toBe(429);
    expect(JSON.parse((refused as HandshakeRefused).body)).toEqual({
      message: formatMessage("ws.tooManyUnauthenticated", { max: MAX_UNAUTHENTICATED_SOCKETS_PER_IP }),
      code: "TOO_MANY_REQUESTS",
    });
    // a spoofed X-Forwarded-For does not make a new client while no proxy is trusted (TRUST_PROXY=0)
    const spoofed = await openRaw(app.wsUrl, {
      localAddress: ip,
      headers: { "x-forwarded-for": "203.0.113.7" },
    }).catch((e: unknown) => e);
    expect((spoofed as HandshakeRefused).status).toBe(429);

    // another address is not affected, and a closed socket frees its place
    await (await openAcked(app.wsUrl, { localAddress: freshLoopbackAddress() })).close();
    await (waiting[0] as RawSocket).close();
    await expect
      .poll(() =>
        openRaw(app.wsUrl, { localAddress: ip }).then(
          () => "open",
          () => "refused",
        ),
      )
      .toBe("open");
  });

  it("should let exactly the limit through when many handshakes from one address arrive at once", async () => {
    const ip = freshLoopbackAddress();
    const attempts = await Promise.allSettled(
      Array.from({ length: MAX_UNAUTHENTICATED_SOCKETS_PER_IP + 16 }, () =>
        openAcked(app.wsUrl, { localAddress: ip }),
      ),
    );
    const opened = attempts.filter((a) => a.status === "fulfilled").length;
    const refused = attempts.filter(
      (a) => a.status === "rejected" && a.reason instanceof HandshakeRefused && a.reason.status === 429,
    ).length;
    expect(opened).toBe(MAX_UNAUTHENTICATED_SOCKETS_PER_IP);
    expect(refused).toBe(16);
  });

  it("should not count signed-in sockets against their address (an office behind one IP)", async () => {
    const ip = freshLoopbackAddress();
    const users = await Promise.all(Array.from({ length: 4 }, () => createVerifiedUser(app)));
    const perUser = Math.ceil((MAX_UNAUTHENTICATED_SOCKETS_PER_IP + 4) / users.length);
    expect(perUser).toBeLessThanOrEqual(MAX_SOCKETS_PER_USER);
    let signedIn = 0;
    for (const { token } of users) {
      for (let i = 0; i < perUser; i++) {
        await openAcked(app.wsUrl, { localAddress: ip, params: { authToken: token } });
        signedIn += 1;
      }
    }
    expect(signedIn).toBeGreaterThan(MAX_UNAUTHENTICATED_SOCKETS_PER_IP);
    // and the address still has its full allowance for sockets not signed in
    await openAcked(app.wsUrl, { localAddress: ip });
  });
});

describe("sockets per user", () => {
  it("should close the socket past MAX_SOCKETS_PER_USER with 4290 and a Danish reason, across sessions", async () => {
    const { input, token } = await createVerifiedUser(app);
    // a second login: another session of the same user counts against the same limit
    const second = (
      await gql(app, `mutation L($input: LoginInput!) { login(input: $input) { token } }`, {
        input: { email: input.email, password: input.password },
      })
    ).data.login.token as string;
    const sockets: RawSocket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) {
      sockets.push(await openAcked(app.wsUrl, { params: { authToken: i % 2 ? second : token } }));
    }
    const over = await openRaw(app.wsUrl);
    expect(await initOutcome(over, { authToken: second })).toEqual({
      code: WS_CLOSE_TOO_MANY_SOCKETS,
      reason: formatMessage("ws.tooManySockets", { max: MAX_SOCKETS_PER_USER }),
    });
    expect(over.messages).toEqual([]);

    // the open ones keep working; another user is not affected; closing one frees a place
    expect((await runOperation(sockets[0] as RawSocket, "q", "{ me { email } }")).data).toEqual({
      me: { email: input.email },
    });
    const other = await createVerifiedUser(app);
    await openAcked(app.wsUrl, { params: { authToken: other.token } });
    await (sockets[1] as RawSocket).close();
    await expect
      .poll(() =>
        openAcked(app.wsUrl, { params: { authToken: token } }).then(
          () => "open",
          () => "refused",
        ),
      )
      .toBe("open");
  });

  it("should let exactly MAX_SOCKETS_PER_USER sign in when they all connect at once", async () => {
    const { token } = await createVerifiedUser(app);
    const sockets = await Promise.all(
      Array.from({ length: MAX_SOCKETS_PER_USER + 5 }, () => openRaw(app.wsUrl)),
    );
    for (const s of sockets) s.send({ type: "connection_init", payload: { authToken: token } });
    const outcomes = await Promise.all(
      sockets.map((s) =>
        s
          .next((m) => m.type === "connection_ack")
          .then(
            () => "ack",
            async () => (await s.closed).code,
          ),
      ),
    );
    expect(outcomes.filter((o) => o === "ack")).toHaveLength(MAX_SOCKETS_PER_USER);
    expect(outcomes.filter((o) => o === WS_CLOSE_TOO_MANY_SOCKETS)).toHaveLength(5);
  });

  it("should count cookie-authenticated sockets (from the app's origin) the same way", async () => {
    const { token } = await createVerifiedUser(app);
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) {
      await openAcked(app.wsUrl, { origin: app.url, cookie: `auth_token=${token}` });
    }
    const over = await openRaw(app.wsUrl, { origin: app.url, cookie: `auth_token=${token}` });
    expect(await initOutcome(over)).toMatchObject({ code: WS_CLOSE_TOO_MANY_SOCKETS });
  });
});

describe("subscriptions per socket", () => {
  const SUBSCRIBE = "subscription { preferencesChanged { theme } }";
  const subscribe = (raw: RawSocket, id: string) =>
    raw.send({ type: "subscribe", id, payload: { query: SUBSCRIBE } });
  /**
   * Change the user's theme until every one of `ids` has received an event after message number `since`
   * (a subscription starts a moment after it is sent), and no other id has.
   */
  async function untilAllReceive(raw: RawSocket, ids: string[], token: string, since = 0): Promise<void> {
    const got = () =>
      new Set(
        raw.messages
          .slice(since)
          .filter((m) => m.type === "next")
          .map((m) => m.id),
      );
    const deadline = Date.now() + 15_000;
    let theme = "dark";
    while (!ids.every((id) => got().has(id)) && Date.now() < deadline) {
      theme = theme === "dark" ? "light" : "dark";
      await gql(app, `mutation { updatePreferences(input: { theme: ${theme} }) { theme } }`, {}, token);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...got()].sort()).toEqual([...ids].sort());
  }

  it("should refuse the subscription past the limit with TOO_MANY_REQUESTS and keep the socket and the others", async () => {
    const { token } = await createVerifiedUser(app);
    const raw = await openAcked(app.wsUrl, { params: { authToken: token } });
    const ids = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SOCKET }, (_, i) => `s${i}`);
    for (const id of ids) subscribe(raw, id);
    await untilAllReceive(raw, ids, token);

    subscribe(raw, "over");
    const refused = await raw.next((m) => m.id === "over");
    expect(refused).toEqual({
      id: "over",
      type: "error",
      payload: [
        {
          message: formatMessage("ws.tooManySubscriptions", { max: MAX_SUBSCRIPTIONS_PER_SOCKET }),
          extensions: {
            code: "TOO_MANY_REQUESTS",
            messageKey: "ws.tooManySubscriptions",
            messageParams: { max: MAX_SUBSCRIPTIONS_PER_SOCKET },
          },
        },
      ],
    });
    expect(raw.ws.readyState).toBe(raw.ws.OPEN);

    // completing one frees one place (its id can be used again), and only one
    const before = raw.messages.length;
    raw.send({ type: "complete", id: "s1" });
    subscribe(raw, "s1");
    subscribe(raw, "over-again");
    expect(await raw.next((m) => m.id === "over-again")).toMatchObject({
      type: "error",
      payload: [{ extensions: { code: "TOO_MANY_REQUESTS" } }],
    });
    await untilAllReceive(raw, ids, token, before);
  });

  it("should accept exactly the limit from a burst of subscribe messages sent at once", async () => {
    const { token } = await createVerifiedUser(app);
    const raw = await openAcked(app.wsUrl, { params: { authToken: token } });
    const ids = Array.from({ length: 50 }, (_, i) => `b${i}`);
    for (const id of ids) subscribe(raw, id); // no waiting in between
    await expect
      .poll(() => raw.messages.filter((m) => m.type === "error").length)
      .toBe(ids.length - MAX_SUBSCRIPTIONS_PER_SOCKET);
    const refusedIds = new Set(raw.messages.filter((m) => m.type === "error").map((m) => m.id));
    await untilAllReceive(
      raw,
      ids.filter((id) => !refusedIds.has(id)),
      token,
    );
  });

  it("should free the place of a query once it has answered (many queries one after another)", async () => {
    const { token, user } = await createVerifiedUser(app);
    const raw = await openAcked(app.wsUrl, { params: { authToken: token } });
    for (let i = 0; i < 30; i++) {
      expect((await runOperation(raw, `q${i}`, "{ me { id } }")).data).toEqual({ me: { id: user.id } });
    }
  });
});

describe("cookie authentication and Origin (cross-site websocket hijacking)", () => {
  const cookieFor = (token: string) => `auth_token=${token}`;

  it.each([
    ["another port on the same host", (url: string) => url.replace(/:\d+$/, ":1")],
    ["the other scheme", (url: string) => url.replace(/^http:/, "https:")],
    ["a lookalike host", (url: string) => `${url}.evil.example`],
    ["a sibling subdomain of an allowed origin", () => "https://evil.example.dk"],
    ["a suffix on an allowed origin's host", () => `${PARTNER_ORIGIN}.evil.example`],
    ["an allowed origin with a path", () => `${PARTNER_ORIGIN}/`],
    ["the opaque origin null (sandboxed frame, file: page)", () => "null"],
    ["no Origin at all (not a browser)", () => undefined],
  ])("should refuse the cookie from %s with 4403", async (_name, originFor) => {
    const { token } = await createVerifiedUser(app);
    const raw = await openRaw(app.wsUrl, { origin: originFor(app.url), cookie: cookieFor(token) });
    expect(await initOutcome(raw)).toEqual({
      code: WS_CLOSE_FORBIDDEN,
      reason: formatMessage("ws.originRefused"),
    });
    expect(raw.messages).toEqual([]);
  });

  it.each([
    ["APP_URL's origin", () => app.url],
    ["an origin from ALLOWED_ORIGINS", () => PARTNER_ORIGIN],
  ])("should accept the cookie from %s", async (_name, originFor) => {
    const { token, user } = await createVerifiedUser(app);
    const raw = await openAcked(app.wsUrl, { origin: originFor(), cookie: cookieFor(token) });
    expect((await runOperation(raw, "me", "{ me { id } }")).data).toEqual({ me: { id: user.id } });
  });

  it("should accept a token in connectionParams from any origin, and prefer it to the cookie", async () => {
    const alice = await createVerifiedUser(app);
    const bob = await createVerifiedUser(app);
    const fromElsewhere = await openAcked(app.wsUrl, {
      origin: "https://elsewhere.example",
      params: { authToken: alice.token },
    });
    expect((await runOperation(fromElsewhere, "me", "{ me { id } }")).data).toEqual({
      me: { id: alice.user.id },
    });
    const both = await openAcked(app.wsUrl, {
      origin: "https://elsewhere.example",
      cookie: cookieFor(bob.token),
      params: { authToken: alice.token },
    });
    expect((await runOperation(both, "me", "{ me { id } }")).data).toEqual({ me: { id: alice.user.id } });
  });

  it("should let a page from another origin without the cookie connect anonymously", async () => {
    const raw = await openAcked(app.wsUrl, { origin: "https://elsewhere.example" });
    expect((await runOperation(raw, "me", "{ me { id } }")).data).toEqual({ me: null });
  });
});
