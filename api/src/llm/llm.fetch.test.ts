import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../testing/processes";
import { leanFetch } from "./llm.fetch";

describe("llm.fetch (the SDK's fetch over node:http)", () => {
  let server: http.Server;
  let base = "";
  let connections = 0;
  const lean = leanFetch();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/gzip") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(zlib.gzipSync(JSON.stringify({ ok: "æøå" })));
      } else if (req.url === "/slow") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: 1\n\n");
        // never ends: the reader aborts
      } else if (req.url === "/echo") {
        let body = "";
        req.on("data", (b) => (body += b));
        req.on("end", () => {
          res.writeHead(201, { "content-type": "application/json", "x-request-id": "r1" });
          res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, body }));
        });
      }
    });
    server.on("connection", () => connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    lean.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("should send the SDK's request and give what it reads of the response, over one kept-alive socket", async () => {
    const before = connections;
    for (let i = 0; i < 3; i++) {
      const res = await lean.fetch(`${base}/echo`, {
        method: "POST",
        headers: new Headers({ authorization: "Bearer k", "content-type": "application/json" }),
        body: '{"a":1}',
      });
      expect(res.ok).toBe(true);
      expect(res.status).toBe(201);
      expect(res.headers.get("x-request-id")).toBe("r1");
      expect(await res.json()).toEqual({ method: "POST", auth: "Bearer k", body: '{"a":1}' });
    }
    expect(connections - before).toBe(1);
  });

  it("should decompress a gzip body", async () => {
    expect(await (await lean.fetch(`${base}/gzip`)).json()).toEqual({ ok: "æøå" });
  });

  it("should give the body as a Node stream (no web stream) and end it with an AbortError when aborted", async () => {
    const ac = new AbortController();
    const res = await lean.fetch(`${base}/slow`, { signal: ac.signal });
    const body = res.body as unknown as AsyncIterable<Buffer>;
    expect(body instanceof ReadableStream).toBe(false);
    const chunks: string[] = [];
    const read = (async () => {
      for await (const chunk of body) {
        chunks.push(chunk.toString());
        ac.abort();
      }
    })();
    await expect(read).rejects.toMatchObject({ name: "AbortError" });
    expect(chunks).toEqual(["data: 1\n\n"]);
  });

  it("should reject a refused connection with its error, and an aborted request with an AbortError", async () => {
    const port = await freePort();
    await expect(lean.fetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    const ac = new AbortController();
    ac.abort();
    await expect(lean.fetch(`${base}/echo`, { signal: ac.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
