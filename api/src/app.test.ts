import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { websocketOrigin } from "./app";
import { SessionModel } from "./auth/session.model";
import { startTestApp, type TestApp } from "./testing/app";
import { gql, rest } from "./testing/client";
import { rawGet } from "./testing/raw-http";

let app: TestApp;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "vidensbank-dist-"));

beforeAll(async () => {
  fs.writeFileSync(
    path.join(dist, "index.html"),
    "<!doctype html><title>Vidensbank web</title><div id=root></div>",
  );
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(path.join(dist, "assets", "app.js"), "console.log('app')");
});
afterAll(() => {
  fs.rmSync(dist, { recursive: true, force: true });
});

describe("the HTTP app", () => {
  beforeAll(async () => {
    app = await startTestApp({ webDist: dist, mail: "outbox" });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("should answer the health probes", async () => {
    expect(await rest(app, "GET", "/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await rest(app, "GET", "/readyz")).toMatchObject({
      status: 200,
      body: { status: "ok", database: true },
    });
  });

  it("should serve the web app for client-side routes and its static files", async () => {
    for (const p of ["/", "/knowledge", "/admin/notion", "/verify-email?token=abc", "/no/such/page"]) {
      const res = await fetch(`${app.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(await res.text()).toContain("Vidensbank web");
    }
    const js = await fetch(`${app.url}/assets/app.js`);
    expect(js.headers.get("content-type")).toContain("javascript");
  });

  it("should answer an unknown /api path with a JSON 404, never the web app", async () => {
    const res = await rest(app, "GET", "/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Endpoint findes ikke", code: "NOT_FOUND" });
    expect((await rest(app, "POST", "/api/auth/nope", { body: {} })).status).toBe(404);
  });

  it("should send a strict Content-Security-Policy allowing websockets to itself", async () => {
    const res = await fetch(`${app.url}/`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // APP_URL's websocket origin, fixed at start (the test app's APP_URL is http://localhost:<PORT>)
    expect(csp).toMatch(/connect-src 'self' ws:\/\/localhost:\d+;/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("should never copy the Host header into the Content-Security-Policy", async () => {
    for (const host of ["evil.example", "evil.example:4444", "127.0.0.1:1"]) {
      const res = await rawGet(app.url, "/", [`Host: ${host}`]);
      expect(res.status, host).toBe(200);
      const csp = res.headers["content-security-policy"];
      expect(csp, host).not.toContain(host);
      expect(csp, host).toContain("connect-src 'self' ws://localhost:");
    }
  });

  it("should refuse bodies over 1 MB with 413 in the REST error shape", async () => {
    const big = JSON.stringify({ email: "a@minksekretariatet.dk", password: "x".repeat(2 * 1024 * 1024) });
    const res = await rest(app, "POST", "/api/auth/login", { body: big });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "Forespørgslen er for stor", code: "PAYLOAD_TOO_LARGE" });
    const gqlRes = await rest(app, "POST", "/graphql", {
      body: JSON.stringify({ query: `{ me { id } }`, x: "y".repeat(2 * 1024 * 1024) }),
    });
    expect(gqlRes.status).toBe(413);
    expect((await rest(app, "GET", "/healthz")).status).toBe(200);
  });

  it("should answer GraphQL without an ETag (not hashed), REST with one, neither saying X-Powered-By", async () => {
    const g = await rest(app, "POST", "/graphql", { body: JSON.stringify({ query: "{ __typename }" }) });
    expect(g.status).toBe(200);
    expect(g.body).toEqual({ data: { __typename: "Query" } });
    expect(g.headers.get("etag")).toBeNull();
    expect(g.headers.get("x-powered-by")).toBeNull();
    // helmet's headers still come from the main app
    expect(g.headers.get("x-content-type-options")).toBe("nosniff");
    const r = await rest(app, "GET", "/healthz");
    expect(r.headers.get("etag")).toMatch(/^W\/"/);
    expect(r.headers.get("x-powered-by")).toBeNull();
  });

  it("should allow introspection outside production", async () => {
    const res = await gql(app, "{ __schema { queryType { name } } }");
    expect(res.data?.__schema.queryType.name).toBe("Query");
  });

  it("should write mail to the outbox folder without SMTP_URL", async () => {
    const email = "outbox.test@minksekretariatet.dk";
    await rest(app, "POST", "/api/auth/register", {
      body: { name: "Outbox Test", email, username: "outboxtest", password: "hemmeligt1" },
    });
    const mail = await app.mail.waitFor(email);
    expect(mail.subject).toBe("Bekræft din email til Vidensbank");
    expect(mail.links[0]).toMatch(new RegExp(`^${app.url}/verify-email\\?token=`));
    expect(fs.readdirSync(path.join(app.config.dataDir, "outbox")).some((f) => f.endsWith(".eml"))).toBe(
      true,
    );
  });
});

describe("the HTTP app without a built web app", () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp({ mail: "outbox" });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it("should show a helpful page instead", async () => {
    const res = await fetch(`${bare.url}/knowledge`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("npm run build -w web");
  });
});

describe("the Content-Security-Policy behind https", () => {
  let secure: TestApp;
  beforeAll(async () => {
    secure = await startTestApp({ mail: "outbox", config: { appUrl: "https://vidensbank.example.dk" } });
  });
  afterAll(async () => {
    await secure?.close();
  });

  it("should allow websockets to APP_URL's host over wss: only, whatever Host the request names", async () => {
    expect(websocketOrigin("https://vidensbank.example.dk")).toBe("wss://vidensbank.example.dk");
    expect(websocketOrigin("http://localhost:3000/")).toBe("ws://localhost:3000");
    const res = await rawGet(secure.url, "/", ["Host: evil.example"]);
    const csp = res.headers["content-security-policy"];
    expect(csp).toContain("connect-src 'self' wss://vidensbank.example.dk;");
    expect(csp).toContain("upgrade-insecure-requests");
    expect(csp).not.toContain("evil.example");
  });
});

describe("the HTTP app in production mode", () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await startTestApp({ mail: "outbox", config: { nodeEnv: "production" } });
  });
  afterAll(async () => {
    await prod?.close();
  });

  it("should refuse introspection and hide error details", async () => {
    const res = await gql(prod, "{ __schema { queryType { name } } }");
    expect(res.data).toBeUndefined();
    expect(res.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(JSON.stringify(res.errors)).not.toContain("stacktrace");
  });
});

describe("readiness", () => {
  let app2: TestApp;
  beforeAll(async () => {
    app2 = await startTestApp({ mail: "outbox" });
  });
  afterAll(async () => {
    await app2?.close();
  });

  it("should report 503 on /readyz while the store is unreachable, and stay alive on /healthz", async () => {
    expect((await rest(app2, "GET", "/readyz")).status).toBe(200);
    await mongoose.connection.close();
    const res = await rest(app2, "GET", "/readyz");
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "unavailable", database: false });
    expect((await rest(app2, "GET", "/healthz")).status).toBe(200);
  });
});

describe("GraphQL behind a trusted proxy", () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await startTestApp({ mail: "outbox", config: { trustProxyHops: 1 } });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  it("should take the client's address from the proxy's X-Forwarded-For, as REST does", async () => {
    // GraphQL runs in an app of its own (no ETag): it must still inherit `trust proxy` from the main app
    const res = await fetch(proxied.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
      body: JSON.stringify({
        query: "mutation($input: LoginInput!) { login(input: $input) { token } }",
        variables: { input: { email: proxied.admin.email, password: proxied.admin.password } },
      }),
    });
    const body = (await res.json()) as { data?: { login: { token: string } } };
    expect(body.data?.login.token).toBeTruthy();
    const session = await SessionModel.findOne({}).sort({ _id: -1 }).lean();
    expect(session?.sess.ip).toBe("203.0.113.7");
  });
});
