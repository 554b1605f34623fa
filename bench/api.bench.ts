/**
 * HTTP benchmark of the API (autocannon), beside a bare node:http server answering the same JSON.
 *   npm run bench:api                      5 s per case, 20 connections
 *   npm run bench:api -- --duration 2 --connections 10
 * Cases: POST /api/auth/login (argon2id verify, session write), GET /api/auth/status (JWT + session + user
 * lookups) and a GraphQL `me` query, all over the in-memory embedded store.
 */
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { startTestApp } from "../api/src/testing/app";
import { createVerifiedUser } from "../api/src/testing/client";

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: {
  url: string;
  method?: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const duration = arg("duration", 5);
const connections = arg("connections", 20);

async function main(): Promise<void> {
  const app = await startTestApp({ mail: "outbox" });
  const { input, token, user } = await createVerifiedUser(app);
  const statusBody = JSON.stringify({ isAuthenticated: true, user });

  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(statusBody);
  });
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", () => r()));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  const auth = { authorization: `Bearer ${token}` };
  const json = { "content-type": "application/json" };
  const cases: Array<[string, Parameters<Autocannon>[0]]> = [
    ["bare node:http (same JSON)", { url: bareUrl, connections, duration }],
    ["GET /api/auth/status", { url: `${app.url}/api/auth/status`, headers: auth, connections, duration }],
    [
      "GraphQL { me }",
      {
        url: app.graphqlUrl,
        method: "POST",
        headers: { ...auth, ...json },
        body: JSON.stringify({ query: "{ me { id name email role } }" }),
        connections,
        duration,
      },
    ],
    [
      "POST /api/auth/login",
      {
        url: `${app.url}/api/auth/login`,
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: input.email, password: input.password }),
        connections,
        duration,
      },
    ],
  ];

  const rows: string[][] = [];
  for (const [name, opts] of cases) {
    const r = await autocannon(opts);
    rows.push([
      name,
      r.requests.average.toFixed(0),
      `${r.latency.p50.toFixed(1)} ms`,
      `${r.latency.p99.toFixed(1)} ms`,
      String(r.requests.total),
      String(r.non2xx + r.errors),
    ]);
  }
  await new Promise<void>((r) => bare.close(() => r()));
  // requests autocannon abandoned at the end of a case are still being served: let them finish
  await new Promise((r) => setTimeout(r, 2000));
  await app.close();

  const head = ["case", "req/s", "p50", "p99", "requests", "non-2xx/errors"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  process.stdout.write(
    `\nbench:api  ${connections} connections, ${duration} s per case, Node ${process.version}\n\n`,
  );
  process.stdout.write(
    `${line(head)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n${rows.map(line).join("\n")}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench:api failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
