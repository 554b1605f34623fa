/**
 * The wrk client of bench:cluster's throughput part: its report is read right (errors are never lost, so a run
 * with errors cannot pass as a throughput figure), and the request its Lua script sends is the one asked for.
 * The run against a real wrk is skipped where wrk is not installed (CI does not run the benches).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { luaString, parseWrk, throughputClient, wrk, wrkOnPath } from "./wrk";

const REPORT = `Running 5s test @ http://127.0.0.1:4000/api/knowledge
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.10ms    1.20ms  30.00ms   90.00%
  Latency Distribution
     50%    2.90ms
     99%    9.00ms
  14000 requests in 5.00s, 330.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:   2800.00
Transfer/sec:     66.00MB
WRK_RESULT 14000 5000000 7 0 2 0 1 2900 9000 31
`;

describe("parseWrk", () => {
  it("reads the rate, the errors, the latency and wrk's own CPU", () => {
    const r = parseWrk(REPORT);
    expect(r).toMatchObject({ rps: 2800, requests: 14000, non2xx: 7, socketErrors: 3, p50: 2.9, p99: 9 });
    expect(r.cpuSeconds).toBeCloseTo(0.31);
  });

  it("keeps the errors of wrk's own lines when the script's line says none", () => {
    const r = parseWrk(
      REPORT.replace("WRK_RESULT 14000 5000000 7 0 2 0 1", "WRK_RESULT 14000 5000000 0 0 0 0 0"),
    );
    expect(r.non2xx).toBe(7);
    expect(r.socketErrors).toBe(3);
  });

  it("refuses a report without its result line", () => {
    expect(() => parseWrk(REPORT.replace(/WRK_RESULT.*\n/, ""))).toThrow(/no result/);
  });
});

describe("luaString", () => {
  it("escapes quotes, backslashes, control characters and non-ASCII bytes", () => {
    expect(luaString('a"b\\c\nø')).toBe('"a\\34b\\92c\\10\\195\\184"');
  });
});

describe("throughputClient", () => {
  it("takes autocannon when asked and refuses an unknown client", () => {
    expect(throughputClient(["--client", "autocannon"])).toBe("autocannon");
    expect(() => throughputClient(["--client", "ab"])).toThrow(/expected wrk or autocannon/);
  });
});

describe.skipIf(!wrkOnPath())("wrk against a local server", () => {
  const seen: Array<{ method?: string; auth?: string; type?: string; body: string }> = [];
  let server: http.Server;
  let url = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => {
        body += d.toString();
      });
      req.on("end", () => {
        if (seen.length < 5)
          seen.push({
            method: req.method,
            auth: req.headers.authorization,
            type: req.headers["content-type"],
            body,
          });
        res.statusCode = req.url === "/missing" ? 404 : 200;
        res.end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("sends the method, body and headers of the script and reports its CPU", async () => {
    const body = JSON.stringify({ query: '{ searchKnowledge(query: "æble") { total } }' });
    const r = await wrk({
      url: `${url}/graphql`,
      method: "POST",
      body,
      headers: { authorization: 'Bearer a"b', "content-type": "application/json" },
      connections: 2,
      duration: 1,
    });
    expect(r.requests).toBeGreaterThan(0);
    expect(r.non2xx + r.socketErrors).toBe(0);
    expect(r.cpuSeconds).not.toBeNull();
    expect(seen[0]).toEqual({ method: "POST", auth: 'Bearer a"b', type: "application/json", body });
  });

  it("counts error responses", async () => {
    const r = await wrk({ url: `${url}/missing`, connections: 2, duration: 1 });
    expect(r.non2xx).toBe(r.requests);
    expect(r.non2xx).toBeGreaterThan(0);
  });
});
