/** Raw HTTP over a socket, for tests that send what fetch() refuses to (bad Host, bad paths, broken framing). */
import net from "node:net";

export interface RawResponse {
  /** 0 when the server closed without an answer */
  status: number;
  headers: Record<string, string>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test helper
  json: any;
}

/** Parse one HTTP/1.1 response (the server closes after it: tests send Connection: close). */
function parseResponse(raw: Buffer): RawResponse {
  const text = raw.toString("utf8");
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, text, json: undefined };
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(" ")[1]), headers, text: body, json };
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const nl = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, nl), 16);
    if (!size) return out;
    out += rest.slice(nl + 2, nl + 2 + size);
    rest = rest.slice(nl + 2 + size + 2);
  }
}

/**
 * Send `request` (one string or Buffer, or chunks written `gapMs` apart) to the server at `url` and read the
 * answer until the server closes the connection (or `timeoutMs`).
 */
export function rawRequest(
  url: string,
  request: string | Buffer | Array<string | Buffer>,
  opts: { gapMs?: number; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { port, hostname } = new URL(url);
  const chunks = Array.isArray(request) ? request : [request];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(received)));
    };
    socket.on("data", (d) => received.push(d));
    socket.on("close", finish);
    socket.on("error", (e: NodeJS.ErrnoException) => {
      // the server may close while we still write: what it answered before counts
      if (e.code !== "ECONNRESET" && e.code !== "EPIPE") reject(e);
    });
    timer = setTimeout(() => socket.destroy(), opts.timeoutMs ?? 10_000);
    socket.on("connect", async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (socket.destroyed) return;
        if (i > 0 && opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
        if (!socket.destroyed) socket.write(chunk);
      }
    });
  });
}

/** A GET with the given path and extra header lines, closing after the answer. */
export function rawGet(url: string, path: string, headerLines: string[] = []): Promise<RawResponse> {
  const host = new URL(url).host;
  const hasHost = headerLines.some((l) => /^host:/i.test(l));
  return rawRequest(
    url,
    Buffer.from(
      `GET ${path} HTTP/1.1\r\n${hasHost ? "" : `Host: ${host}\r\n`}${headerLines.map((l) => `${l}\r\n`).join("")}Connection: close\r\n\r\n`,
      "utf8",
    ),
  );
}
