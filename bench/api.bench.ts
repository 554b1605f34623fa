/**
 * HTTP benchmark of the API (autocannon), beside a bare node:http server answering the same JSON.
 *   npm run bench:api                      5 s per case, 20 connections
 *   npm run bench:api -- --duration 2 --connections 10
 *   npm run bench:api -- --cpu             also CPU per request (sequential requests; --cpu-requests 400)
 * Req/s depends on what else the machine runs. CPU time per request hardly does: compare checkouts by --cpu
 * (its "over bare" column takes out the client and Node's own HTTP work, which run in this process too).
 * Cases: POST /api/auth/login (argon2id verify, session write), GET /api/auth/status (JWT + session + user
 * lookups) and a GraphQL `me` query, all over the in-memory embedded store.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestApp } from "../api/src/testing/app";
import { createVerifiedUser } from "../api/src/testing/client";
import { type Autocannon, arg, autocannon } from "./load";

const duration = arg("duration", 5);
const connections = arg("connections", 20);
const cpuMode = process.argv.includes("--cpu");
const cpuRequests = arg("cpu-requests", 400);
const CPU_ROUNDS = 5;

interface Request {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * CPU time (user + system, every thread of this process: argon2 runs on the libuv pool) per request over n
 * sequential keep-alive requests, per round: a warm-up round, then CPU_ROUNDS measured ones.
 */
async function cpuPerRequest(req: Request, n: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = () =>
    new Promise<void>((resolve, reject) => {
      const r = http.request(req.url, { method: req.method ?? "GET", headers: req.headers, agent }, (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${req.url}: status ${res.statusCode}`)),
        );
      });
      r.on("error", reject);
      r.end(req.body);
    });
  const rounds: number[] = [];
  try {
    for (let round = 0; round <= CPU_ROUNDS; round++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await send();
      const c = process.cpuUsage(c0);
      if (round > 0) rounds.push((c.user + c.system) / n);
    }
  } finally {
    agent.destroy();
  }
  return rounds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return `${line(head)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n${rows.map(line).join("\n")}\n`;
}

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

  const cpuRows: string[][] = [];
  if (cpuMode) {
    let bareUs = 0;
    for (const [name, opts] of cases) {
      // a login costs ~100 times a status request (argon2id): fewer of them
      const n = opts.url.endsWith("/login") ? Math.max(20, Math.round(cpuRequests / 20)) : cpuRequests;
      const rounds = await cpuPerRequest(opts, n);
      const us = median(rounds);
      if (opts.url === bareUrl) bareUs = us;
      cpuRows.push([
        name,
        us.toFixed(0),
        opts.url === bareUrl ? "" : (us - bareUs).toFixed(0),
        `${Math.min(...rounds).toFixed(0)}–${Math.max(...rounds).toFixed(0)}`,
        `${CPU_ROUNDS} × ${n}`,
      ]);
    }
  }
  await new Promise<void>((r) => bare.close(() => r()));
  // requests autocannon abandoned at the end of a case are still being served: let them finish
  await new Promise((r) => setTimeout(r, 2000));
  await app.close();

  const head = ["case", "req/s", "p50", "p99", "requests", "non-2xx/errors"];
  process.stdout.write(
    `\nbench:api  ${connections} connections, ${duration} s per case, Node ${process.version}\n\n`,
  );
  process.stdout.write(table(head, rows));
  if (cpuMode) {
    process.stdout.write(
      "\nCPU per request (µs; server and client in this process; median of rounds of sequential requests)\n\n",
    );
    process.stdout.write(table(["case", "µs/req", "over bare", "rounds min–max", "requests"], cpuRows));
  }
}

main().catch((err) => {
  process.stderr.write(`bench:api failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
