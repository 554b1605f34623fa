/**
 * A lean `fetch` for the OpenAI SDK (its `fetch` option), over node:http(s) with one keep-alive agent per client.
 *
 * Why: Node's built-in fetch (undici) builds and clones a Request, writes the body through an async iterable and
 * hands each received chunk through a web ReadableStream; under a burst of questions that was ~8 % of the app's
 * CPU per answer (bench:cluster profile), for two model calls per answer and one read per streamed token. Here a
 * request is one http.request and the response body is the Node stream itself: the SDK iterates any body that is
 * async-iterable directly (its ReadableStreamToAsyncIterable), so no web stream is made for a streamed answer.
 *
 * What the SDK reads of a response is provided: ok, status, statusText, url, headers (a Headers), body, text(),
 * json(), arrayBuffer(). Aborting (the SDK's signal) destroys the request with an AbortError (the SDK then ends a
 * stream quietly and reports a request as aborted); a connection that fails rejects with its error (the SDK makes
 * it an APIConnectionError). gzip/deflate/br bodies are decompressed (only asked for as fetch would).
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";

/** a response body read whole (a completion, a batch of embeddings, an error) is refused beyond this size */
export const FETCH_BODY_MAX_BYTES = 64 * 1024 * 1024;

export interface LeanFetch {
  fetch: typeof fetch;
  /** close the idle keep-alive sockets */
  close(): void;
}

function abortError(): Error {
  return new DOMException("This operation was aborted", "AbortError");
}

/** the request's headers as a plain object (Headers, a record or pairs, as fetch accepts them) */
function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  if (init instanceof Headers || Array.isArray(init)) {
    for (const [k, v] of init as Iterable<[string, string]>) out[k] = v;
  } else {
    for (const [k, v] of Object.entries(init)) if (v !== undefined) out[k] = String(v);
  }
  return out;
}

/** the body, decompressed; a broken response or bad data destroys the decoder with the error (its reader sees it) */
function decoded(res: IncomingMessage): Readable {
  const encoding = res.headers["content-encoding"];
  const decoder =
    encoding === "gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return res;
  pipeline(res, decoder, () => undefined);
  return decoder;
}

/** What the SDK uses of a fetch Response, over the Node response stream. */
class LeanResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly redirected = false;
  readonly type = "basic";
  bodyUsed = false;

  constructor(
    readonly url: string,
    res: IncomingMessage,
    /** the decoded body: async-iterable (Buffer chunks) */
    readonly body: Readable,
  ) {
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? "";
    this.ok = this.status >= 200 && this.status < 300;
    const headers = new Headers();
    const raw = res.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
    this.headers = headers;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.bytes();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  private async bytes(): Promise<Buffer> {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.bodyUsed = true;
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > FETCH_BODY_MAX_BYTES) {
        this.body.destroy();
        throw new Error(`response body larger than ${FETCH_BODY_MAX_BYTES} bytes`);
      }
      parts.push(chunk);
    }
    return Buffer.concat(parts);
  }
}

const RESET_CODES = new Set(["ECONNRESET", "EPIPE"]);
/** an idle kept-alive socket is closed after this long (servers commonly close theirs after 5 s) */
const IDLE_SOCKET_MS = 4_000;

/** One keep-alive agent per protocol; create once per client (per configuration). */
export function leanFetch(): LeanFetch {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    "https:": new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };

  const leaner = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== "string" && !(input instanceof URL)) return fetch(input, init); // not used by the SDK
    const url = typeof input === "string" ? new URL(input) : input;
    const agent = agents[url.protocol as keyof typeof agents];
    const body = init.body;
    // the SDK sends JSON as a string; anything else (uploads, streams) goes through the built-in fetch
    if (!agent || (body !== undefined && body !== null && typeof body !== "string"))
      return fetch(input, init);
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const payload = typeof body === "string" ? Buffer.from(body) : undefined;
      const headers = plainHeaders(init.headers);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === "accept-encoding"))
        headers["accept-encoding"] = "gzip, deflate, br";
      if (payload) headers["content-length"] = String(payload.length);
      const transport = url.protocol === "https:" ? https : http;
      let current: Readable | null = null;
      let req: http.ClientRequest;
      const onAbort = () => {
        const err = abortError();
        req.destroy(err);
        current?.destroy(err);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const forget = () => signal?.removeEventListener("abort", onAbort);
      const send = (retried: boolean) => {
        req = transport.request(url, { method: init.method ?? "GET", agent, headers });
        req.on("error", (err: NodeJS.ErrnoException) => {
          if (current) return; // after the response: its body's reader sees the error
          // a kept-alive socket the server closed as it was reused: once more on a fresh one (Node's advice;
          // the request did not reach the server). Undici does the same.
          if (!retried && req.reusedSocket && !signal?.aborted && RESET_CODES.has(err.code ?? "")) {
            send(true);
            return;
          }
          forget();
          reject(signal?.aborted ? abortError() : err);
        });
        req.once("response", (res) => {
          current = decoded(res);
          current.once("close", forget);
          resolve(new LeanResponse(url.href, res, current) as unknown as Response);
        });
        req.end(payload);
      };
      send(false);
    });
  };

  return {
    fetch: leaner as typeof fetch,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
