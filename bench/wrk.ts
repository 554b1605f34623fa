/**
 * wrk (C, epoll; Debian package `wrk`) as the HTTP load generator of the throughput benches: it costs a small
 * fraction of autocannon's CPU per request, so on a machine whose cores the servers share with the client it is
 * the nearest honest equivalent of "run the client on another machine".
 *
 * One wrk process per target URL, `-t1`, `--latency`; method, body and headers through a Lua script written to a
 * temporary file. The script's `done()` prints one machine-readable line: the run's counts and errors, latency
 * percentiles and wrk's own CPU (utime + stime from /proc/self/stat, read after its threads have joined).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface WrkOptions {
  url: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  /** seconds */
  duration: number;
}

export interface WrkResult {
  /** wrk's "Requests/sec" line */
  rps: number;
  requests: number;
  /** responses with a status ≥ 400 (wrk's "Non-2xx or 3xx responses") */
  non2xx: number;
  /** connect, read, write errors and timeouts (wrk's "Socket errors") */
  socketErrors: number;
  /** latency percentiles, ms */
  p50: number;
  p99: number;
  /** CPU seconds wrk itself used (all its threads), from /proc/self/stat; null where /proc is missing */
  cpuSeconds: number | null;
  /** wrk's own report, to print when something is off */
  output: string;
}

/** Is `wrk` on PATH? */
export function wrkOnPath(): boolean {
  return spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;
}

/** A Lua string literal of `s` that survives any byte (every byte outside printable ASCII as `\ddd`). */
export function luaString(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, "utf8")) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += printable ? String.fromCharCode(byte) : `\\${byte}`;
  }
  return `${out}"`;
}

/** USER_HZ of /proc/<pid>/stat's utime and stime (100 on every Linux this runs on; `getconf CLK_TCK`) */
const CLOCK_TICKS = 100;
/** The marker of the line the script's done() prints */
const RESULT_MARK = "WRK_RESULT";

/** The Lua script: the request as the autocannon cases send it, and a done() that reports in one line. */
export function wrkScript(o: Pick<WrkOptions, "method" | "body" | "headers">): string {
  const lines = [`wrk.method = ${luaString(o.method ?? "GET")}`];
  if (o.body !== undefined) lines.push(`wrk.body = ${luaString(o.body)}`);
  for (const [name, value] of Object.entries(o.headers ?? {}))
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  lines.push(
    "function done(summary, latency, requests)",
    // utime and stime are fields 14 and 15 of /proc/self/stat: the 12th and 13th after "(comm) "
    "  local ticks = -1",
    '  local f = io.open("/proc/self/stat", "r")',
    "  if f then",
    '    local stat = f:read("*a")',
    "    f:close()",
    '    local rest = stat:sub(stat:match(".*()%)") + 2)',
    "    local fields = {}",
    '    for w in rest:gmatch("%S+") do fields[#fields + 1] = w end',
    "    ticks = tonumber(fields[12]) + tonumber(fields[13])",
    "  end",
    "  local e = summary.errors",
    `  io.write(string.format("${RESULT_MARK} %d %d %d %d %d %d %d %d %d %d\\n",`,
    "    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,",
    "    latency:percentile(50), latency:percentile(99), ticks))",
    "end",
  );
  return `${lines.join("\n")}\n`;
}

/** wrk's report → WrkResult (throws when the result line or the Requests/sec line is missing). */
export function parseWrk(output: string): WrkResult {
  const line = output.split("\n").find((l) => l.startsWith(`${RESULT_MARK} `));
  const rpsMatch = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  if (!line || !rpsMatch) throw new Error(`wrk printed no result:\n${output}`);
  const [requests, , status, connect, read, write, timeout, p50, p99, ticks] = line
    .slice(RESULT_MARK.length + 1)
    .trim()
    .split(/\s+/)
    .map(Number);
  // wrk's own lines, in case the script's counts and its report ever disagree
  const non2xxLine = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socketLine = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketFromLine = socketLine ? socketLine.slice(1).reduce((s, n) => s + Number(n), 0) : 0;
  return {
    rps: Number(rpsMatch[1]),
    requests,
    non2xx: Math.max(status, non2xxLine),
    socketErrors: Math.max(connect + read + write + timeout, socketFromLine),
    p50: p50 / 1000,
    p99: p99 / 1000,
    cpuSeconds: ticks >= 0 ? ticks / CLOCK_TICKS : null,
    output,
  };
}

/** One wrk run against one URL. Rejects when wrk fails to start or exits non-zero. */
export async function wrk(o: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-wrk-"));
  const script = path.join(dir, "request.lua");
  writeFileSync(script, wrkScript(o));
  try {
    const args = ["-t1", `-c${o.connections}`, `-d${o.duration}s`, "--latency", "-s", script, o.url];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}:\n${out}`)),
      );
    });
    return parseWrk(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type Client = "wrk" | "autocannon";

/**
 * `--client wrk|autocannon`: the throughput load generator. Default wrk when it is on PATH, else autocannon
 * (in the bench's own Node process, so it takes a large share of the cores the servers need), saying so.
 */
export function throughputClient(argv: string[]): Client {
  const i = argv.indexOf("--client");
  const asked = i >= 0 ? argv[i + 1] : undefined;
  if (asked !== undefined && asked !== "wrk" && asked !== "autocannon")
    throw new Error(`--client ${asked}: expected wrk or autocannon`);
  if (asked === "autocannon") return "autocannon";
  if (wrkOnPath()) return "wrk";
  if (asked === "wrk") throw new Error("--client wrk: wrk is not on PATH (apt-get install -y wrk)");
  console.log(
    "wrk is not on PATH (apt-get install -y wrk): the throughput client is autocannon, in this process, on the servers' cores",
  );
  return "autocannon";
}
