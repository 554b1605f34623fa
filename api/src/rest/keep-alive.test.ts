/**
 * The keep-alive idle timeout against the reverse proxy's: the proxy must close an idle upstream connection
 * before the server does, else a request sent on a connection the server is just closing fails with a reset.
 */
import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, KEEP_ALIVE_TIMEOUT_MS } from "./http-edge";

const NGINX_CONF = new URL("../../../deploy/nginx.conf", import.meta.url);

function secondsOf(directive: string, conf: string): number {
  const m = new RegExp(`^\\s*${directive}\\s+(\\d+)s?\\s*;`, "m").exec(conf);
  if (!m) throw new Error(`${directive} not found in deploy/nginx.conf`);
  return Number(m[1]);
}

/** One keep-alive request on a raw socket; resolves when the server closes the socket, with the idle time. */
function idleUntilClosed(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"),
    );
    let answeredAt = 0;
    socket.on("data", () => {
      answeredAt ||= Date.now();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answeredAt ? Date.now() - answeredAt : -1));
  });
}

describe("HTTP keep-alive", () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    if (server) await new Promise((r) => server?.close(r));
    server = null;
  });

  it("outlasts the proxy's upstream keep-alive (deploy/nginx.conf) and Node's 5 s default", () => {
    const proxy = secondsOf("keepalive_timeout", fs.readFileSync(NGINX_CONF, "utf8"));
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(proxy * 1000);
    expect(createHttpServer(() => undefined).keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
  });

  it("keeps an idle connection open until the timeout and closes it after", async () => {
    server = createHttpServer((_req, res) => res.end("ok"), { keepAliveTimeoutMs: 400 });
    await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const idleMs = await idleUntilClosed(port);
    // Node checks the idle timer coarsely: closed at 400 ms, give or take a scheduling slice, never before
    expect(idleMs).toBeGreaterThanOrEqual(350);
    expect(idleMs).toBeLessThan(3000);
  });
});
