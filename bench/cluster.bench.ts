/**
 * Throughput of 2 API processes ÷ 1 over one store (the store in its own process, as start:cluster runs it):
 *   npm run bench:cluster                    5 s per case, 20 connections
 *   npm run bench:cluster -- --duration 3 --connections 10
 * Cases: GET /api/knowledge and a GraphQL searchKnowledge query, signed in as the built-in admin. With two
 * processes the connections are split between their ports (two autocannon runs at once; req/s summed). The
 * client runs in this process too and competes for the same cores: read the ratio with the load average
 * printed beside it. Chat first-token overhead is not measured here yet.
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import os from "node:os";
import { rest } from "../api/src/testing/client";
import { startAppProcess, startStoreProcess } from "../api/src/testing/processes";

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
const PASSWORD = "bench-admin-password";

interface Case {
  name: string;
  path: string;
  method?: string;
  body?: string;
}
const CASES: Case[] = [
  { name: "GET /api/knowledge", path: "/api/knowledge" },
  {
    name: "GraphQL searchKnowledge",
    path: "/graphql",
    method: "POST",
    body: JSON.stringify({
      query: '{ searchKnowledge(query: "klagefrist") { total hits { article { id } } } }',
    }),
  },
];

async function run(urls: string[], c: Case, token: string): Promise<{ rps: number; errors: number }> {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url: `${url}${c.path}`,
        method: c.method ?? "GET",
        connections: Math.max(1, Math.round(connections / urls.length)),
        duration,
        body: c.body,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      }),
    ),
  );
  return {
    rps: results.reduce((s, r) => s + r.requests.average, 0),
    errors: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
  };
}

async function main(): Promise<void> {
  const store = await startStoreProcess();
  const env = {
    MONGODB_URI: store.first,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: "silent",
  };
  const a = await startAppProcess(env);
  const b = await startAppProcess(env);
  try {
    const login = await rest(a, "POST", "/api/auth/login", {
      body: { email: "admin@minksekretariatet.dk", password: PASSWORD },
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    const token = login.body.token as string;
    const rows: string[] = [];
    for (const c of CASES) {
      await run([a.url, b.url], c, token); // warm-up of both (JIT, caches), not counted
      const one = await run([a.url], c, token);
      const two = await run([a.url, b.url], c, token);
      rows.push(
        `${c.name.padEnd(26)} 1 process ${one.rps.toFixed(0).padStart(6)} req/s   2 processes ${two.rps
          .toFixed(0)
          .padStart(6)} req/s   ratio ${(two.rps / one.rps).toFixed(2)}   errors ${one.errors + two.errors}`,
      );
    }
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
    process.stdout.write(
      `${rows.join("\n")}\ncores ${os.cpus().length}, load average ${load} (after the runs)\n`,
    );
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await store.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
