/**
 * The cost of one GraphQL request, through the real server: documents that are cheap to send but costly to
 * check or answer are refused quickly, the server keeps answering /healthz meanwhile, answers have a ceiling,
 * and a client's malformed request is a 4xx with a stable code, not an internal error.
 */
import { createHash } from "node:crypto";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { logger } from "../logger";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, type GqlResult, gql, loginAdmin } from "../testing/client";
import { MAX_RESPONSE_BYTES } from "./limits";

let app: TestApp;
let token: string;
let adminToken: string;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ mail: "outbox" });
  token = (await createVerifiedUser(app)).token;
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await app?.close();
});

const aliases = (n: number, field: string) =>
  Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ");

/** Fragments on User spreading the one below `fanout` times (no sign-in needed for `me`): ~1 KB. */
function fragmentBomb(levels: number, opts: { fanout?: number; inline?: boolean; typename?: boolean } = {}) {
  const fanout = opts.fanout ?? 2;
  const frags = [`fragment F0 on User { id${opts.typename ? " __typename" : ""} }`];
  for (let i = 1; i <= levels; i++) {
    const spreads = Array(fanout)
      .fill(`...F${i - 1}`)
      .join(" ");
    frags.push(`fragment F${i} on User { ${opts.inline ? `... on User { ${spreads} }` : spreads} }`);
  }
  return `{ me { ...F${levels} } } ${frags.join(" ")}`;
}

/**
 * Run a request while probing /healthz, one probe after another until the request is answered: the request's
 * time and the slowest probe. A request that holds the event loop delays the probes sent meanwhile. The machine
 * is shared (other processes can pause this one), so the request runs `runs` times and the best run counts: a
 * request that blocks the server is slow in every run.
 */
async function whileProbing<T>(
  attack: () => Promise<T>,
  runs = 3,
): Promise<{ result: T; ms: number; slowestProbeMs: number }> {
  let best = { ms: Number.POSITIVE_INFINITY, slowestProbeMs: Number.POSITIVE_INFINITY };
  let result: T | undefined;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    let ms = Number.POSITIVE_INFINITY;
    let done = false;
    const running = attack().finally(() => {
      ms = performance.now() - started;
      done = true;
    });
    let slowestProbeMs = 0;
    for (let i = 0; i < 3 || (!done && i < 500); i++) {
      const t = performance.now();
      const res = await fetch(`${app.url}/healthz`);
      await res.text();
      slowestProbeMs = Math.max(slowestProbeMs, performance.now() - t);
    }
    result = await running;
    best = { ms: Math.min(best.ms, ms), slowestProbeMs: Math.min(best.slowestProbeMs, slowestProbeMs) };
  }
  return { result: result as T, ...best };
}

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(app.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as Omit<GqlResult, "headers" | "status"> };
}

/** The first result of one operation over graphql-ws. */
function overSocket(
  query: string,
): Promise<{ errors?: Array<{ message: string; extensions?: Record<string, unknown> }>; data?: unknown }> {
  const client = createClient({
    url: app.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authToken: token },
    retryAttempts: 0,
  });
  clients.push(client);
  return new Promise((resolve) => {
    client.subscribe(
      { query },
      {
        next: (r) => resolve(r as { errors?: Array<{ message: string }> }),
        error: (e) => resolve({ errors: Array.isArray(e) ? e : [{ message: String(e) }] }),
        complete: () => undefined,
      },
    );
  });
}

describe("documents cheap to send and costly to check", () => {
  it.each([
    ["fanout 2, 18 levels", fragmentBomb(18)],
    ["fanout 3, 12 levels", fragmentBomb(12, { fanout: 3 })],
    ["spreads inside inline fragments", fragmentBomb(18, { inline: true })],
    ["with introspection fields (not counted in depth)", fragmentBomb(18, { typename: true })],
    ["spread from two aliases", fragmentBomb(18).replace("{ me {", "{ a: me { ...F18 } b: me {")],
  ])("should refuse a fragment bomb (%s) at once and keep answering /healthz", async (_name, query) => {
    expect(query.length).toBeLessThan(2_000);
    const { result, ms, slowestProbeMs } = await whileProbing(() => post({ query }));
    expect(result.status).toBe(400);
    expect(result.json.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Forespørgslen har for mange felter/),
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(ms).toBeLessThan(1_000);
    expect(slowestProbeMs).toBeLessThan(100);
  });

  it("should refuse a fragment bomb over graphql-ws too", async () => {
    const started = performance.now();
    const res = await overSocket(fragmentBomb(18));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(JSON.stringify(res.errors)).toContain("Forespørgslen har for mange felter");
  });

  it("should refuse a document of too many tokens while parsing, and keep answering /healthz", async () => {
    const query = `{ ${aliases(40_000, "me { id }")} }`; // ~0.9 MB, within the body limit
    const { result, ms, slowestProbeMs } = await whileProbing(() => post({ query }));
    expect(result.status).toBe(400);
    expect(result.json.errors?.[0]).toMatchObject({
      message: "Forespørgslen er for lang (højst 5000 symboler)",
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(ms).toBeLessThan(1_000);
    expect(slowestProbeMs).toBeLessThan(100);
  });

  it("should refuse a document of too many tokens over graphql-ws too, and keep answering /healthz", async () => {
    // ~0.9 MB (under the socket's 1 MB message limit) and ~200,000 tokens: the token cap must hold on its own
    const query = `{ ${aliases(40_000, "me { id }")} }`;
    const { result, ms, slowestProbeMs } = await whileProbing(() => overSocket(query));
    expect(result.errors).toEqual([
      {
        message: "Forespørgslen er for lang (højst 5000 symboler)",
        extensions: { code: "BAD_USER_INPUT", messageKey: "graphql.tokens", messageParams: { max: 5000 } },
      },
    ]);
    expect(ms).toBeLessThan(1_000);
    expect(slowestProbeMs).toBeLessThan(100);
  });

  it("should answer a syntax error over graphql-ws with BAD_USER_INPUT instead of closing the socket", async () => {
    const res = await overSocket("{ me { id }");
    expect(res.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Ugyldig/),
      extensions: { code: "BAD_USER_INPUT" },
    });
  });

  it("should answer ordinary documents with fragments as before", async () => {
    const res = await gql(
      app,
      "query Me { me { ...Who } } fragment Who on User { id ...Names } fragment Names on User { name username }",
      {},
      token,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.me).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  });
});

describe("the size of an answer", () => {
  it.each([
    ["all articles with their text", aliases(120, "knowledgeArticles { id title content }")],
    ["the largest activity page", aliases(60, "activityLogs(limit: 1000) { id action description }")],
    [
      "a session's messages",
      aliases(60, 'messages(sessionId: "none", limit: 100) { id content citations { passage } }'),
    ],
  ])("should refuse aliases of %s before running anything", async (_name, fields) => {
    const { result, ms, slowestProbeMs } = await whileProbing(() =>
      post({ query: `{ ${fields} }` }, { authorization: `Bearer ${adminToken}` }),
    );
    expect(result.status).toBe(400);
    expect(result.json.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Forespørgslen kan give et for stort svar/),
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(result.json.data).toBeUndefined();
    expect(ms).toBeLessThan(1_000);
    expect(slowestProbeMs).toBeLessThan(100);
  });

  it("should refuse a document it answered before once its variables make the answer too large", async () => {
    // the verdict on a document is remembered per (operation, variables): a cheap run must not let a costly one by
    const query = `query($n: Int) { ${aliases(60, "activityLogs(limit: $n) { id action description }")} }`;
    const admin = { authorization: `Bearer ${adminToken}` };
    for (let i = 0; i < 2; i++) {
      const cheap = await post({ query, variables: { n: 1 } }, admin);
      expect(cheap.status).toBe(200);
      expect(cheap.json.errors).toBeUndefined();
    }
    const costly = await post({ query, variables: { n: 1000 } }, admin);
    expect(costly.status).toBe(400);
    expect(costly.json.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Forespørgslen kan give et for stort svar/),
      extensions: { code: "BAD_USER_INPUT" },
    });
    const again = await post({ query, variables: { n: 1 } }, admin);
    expect(again.status).toBe(200);
  });

  describe("with long articles", () => {
    const ARTICLE_CHARS = 199_000;
    const CEILING = 8 * 1024 * 1024; // MAX_RESPONSE_BYTES
    let asciiId: string;
    let danishId: string;

    const create = async (content: string) => {
      const res = await gql(
        app,
        "mutation($input: KnowledgeArticleInput!) { createKnowledgeArticle(input: $input) { id } }",
        { input: { title: `Lang artikel ${content.slice(0, 3)}`, category: "Procedurer", content } },
        adminToken,
      );
      expect(res.errors).toBeUndefined();
      return res.data.createKnowledgeArticle.id as string;
    };

    beforeAll(async () => {
      asciiId = await create("Budget og regnskab. ".repeat(ARTICLE_CHARS / 20));
      danishId = await create("æøå ".repeat(ARTICLE_CHARS / 4)); // 7 UTF-8 bytes per 4 characters
    });
    afterAll(async () => {
      for (const id of [asciiId, danishId]) {
        if (id) await gql(app, "mutation($id: ID!) { deleteKnowledgeArticle(id: $id) }", { id }, adminToken);
      }
    });

    const manyTimes = (id: string, n: number) =>
      `{ ${aliases(n, `knowledgeArticle(id: "${id}") { content }`)} }`;

    it("should refuse an answer over MAX_RESPONSE_BYTES with RESPONSE_TOO_LARGE, counted while it is made", async () => {
      const n = Math.ceil(CEILING / ARTICLE_CHARS) + 2; // just over in characters alone
      const result = await post({ query: manyTimes(asciiId, n) });
      expect(result.status).toBe(400);
      expect(result.json).toEqual({
        errors: [
          {
            message: "Svaret er for stort (over 8 MB); bed om færre felter eller brug limit",
            extensions: {
              code: "RESPONSE_TOO_LARGE",
              messageKey: "graphql.responseBytes",
              messageParams: { mb: 8 },
            },
          },
        ],
      });
      expect(MAX_RESPONSE_BYTES).toBe(CEILING);
    });

    it("should refuse an answer whose characters fit but whose UTF-8 bytes do not", async () => {
      const n = 30; // 5.97 M characters, 10.4 MB
      const result = await post({ query: manyTimes(danishId, n) });
      expect(result.status).toBe(400);
      expect(result.json.errors).toEqual([
        {
          message: "Svaret er for stort (over 8 MB); bed om færre felter eller brug limit",
          extensions: {
            code: "RESPONSE_TOO_LARGE",
            messageKey: "graphql.responseBytes",
            messageParams: { mb: 8 },
          },
        },
      ]);
      expect(result.text.length).toBeLessThan(1_000);
    });

    it("should send a large answer under the ceiling in full", async () => {
      const n = Math.floor(CEILING / ARTICLE_CHARS) - 2;
      const res = await post({ query: manyTimes(asciiId, n) });
      expect(res.status).toBe(200);
      expect(res.json.errors).toBeUndefined();
      const data = res.json.data as Record<string, { content: string }>;
      expect(Object.keys(data)).toHaveLength(n);
      expect(data.a0.content).toHaveLength(ARTICLE_CHARS);
      expect(data[`a${n - 1}`].content).toHaveLength(ARTICLE_CHARS);
    });
  });

  it("should answer the ordinary lists as before", async () => {
    const res = await gql(app, "{ knowledgeArticles { id title content tags } }", {}, token);
    expect(res.errors).toBeUndefined();
    expect(res.data.knowledgeArticles.length).toBeGreaterThan(10);
    expect(res.data.knowledgeArticles[0].content.length).toBeGreaterThan(100);
    const logs = await gql(app, "{ activityLogs(limit: 1000) { id action } }", {}, adminToken);
    expect(logs.errors).toBeUndefined();
  });
});

describe("a client's malformed request", () => {
  const q = "{ me { id } }";
  const sha = (s: string) => createHash("sha256").update(s).digest("hex");

  it.each([
    [
      "a persisted-query hash that does not match",
      { query: q, extensions: { persistedQuery: { version: 1, sha256Hash: sha("x") } } },
    ],
    [
      "a persisted-query hash that is not a hash",
      { query: q, extensions: { persistedQuery: { version: 1, sha256Hash: 42 } } },
    ],
    [
      "an unknown persisted-query version",
      { query: q, extensions: { persistedQuery: { version: 2, sha256Hash: sha(q) } } },
    ],
    ["a body that is not JSON", "{ query: nope"],
    ["a query that is not a string", { query: 42 }],
    ["a query given as a parsed document", { query: { kind: "Document", definitions: [] } }],
    ["variables that are not an object", { query: q, variables: [1, 2] }],
    ["variables as a JSON string", { query: q, variables: "{}" }],
    ["an operationName that is not a string", { query: q, operationName: 7 }],
    ["a batch (batching is off)", [{ query: q }, { query: q }]],
    ["an empty body", {}],
    ["no query", { variables: {} }],
    ["an unknown operation name", { query: "query A { me { id } }", operationName: "B" }],
    // a subscription over HTTP ran its resolver once and failed with a non-null error logged as unexpected
    [
      "a subscription (subscriptions go over the websocket)",
      { query: "subscription { preferencesChanged { language } }" },
    ],
    [
      "a subscription picked by operationName",
      {
        query: "query Q { me { id } } subscription S { preferencesChanged { language } }",
        operationName: "S",
      },
    ],
  ])(
    "should answer %s with 400 BAD_USER_INPUT in GraphQL's shape, not logged as a failure",
    async (_name, body) => {
      const logged = vi.spyOn(logger, "error");
      try {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.json.errors?.[0]).toMatchObject({
          message: expect.stringMatching(/^Ugyldig/),
          extensions: { code: "BAD_USER_INPUT" },
        });
        expect(res.text).not.toMatch(/stacktrace|at \w+ \(/);
        expect(logged).not.toHaveBeenCalled();
      } finally {
        logged.mockRestore();
      }
    },
  );

  it("should answer a mutation sent by GET with 405 and Allow: POST", async () => {
    const logged = vi.spyOn(logger, "error");
    try {
      const res = await fetch(`${app.graphqlUrl}?query=${encodeURIComponent("mutation { logout }")}`, {
        headers: { "apollo-require-preflight": "1" },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      const body = (await res.json()) as GqlResult;
      expect(body.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("should mark GraphQL answers private: Cache-Control no-store, over POST and GET alike", async () => {
    const posted = await fetch(app.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "{ me { email } }" }),
    });
    await posted.text();
    expect(posted.headers.get("cache-control")).toBe("no-store");
    // a GET query (allowed with a preflight header) is what a shared cache could keep: the user's own data
    const got = await fetch(`${app.graphqlUrl}?query=${encodeURIComponent("{ me { email } }")}`, {
      headers: { "apollo-require-preflight": "1", authorization: `Bearer ${token}` },
    });
    const body = (await got.json()) as GqlResult;
    expect(body.data).toMatchObject({ me: { email: expect.any(String) } });
    expect(got.headers.get("cache-control")).toBe("no-store");
  });

  it("should answer a body over the limit with 413 PAYLOAD_TOO_LARGE in GraphQL's shape", async () => {
    const res = await post({ query: `{ me { id } } # ${"x".repeat(1_100_000)}` });
    expect(res.status).toBe(413);
    expect(res.json.errors?.[0].extensions?.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("should keep suggesting field names outside production", async () => {
    const res = await gql(app, "{ mee { id } }");
    expect(res.errors?.[0].message).toContain('Did you mean "me"?');
  });
});
