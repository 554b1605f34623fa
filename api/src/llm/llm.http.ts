/**
 * The HTTP side of the LLM client (llm.client.ts): a JSON POST to an OpenAI-compatible server over node:http(s)
 * with one keep-alive agent per client, and the server-sent events of a streamed answer.
 *
 * Why not the OpenAI SDK: it goes through fetch (undici), web streams and its own SSE decoder, which cost ~22 % of
 * the app's CPU per answer under a burst of questions (bench:cluster profile): for each streamed token a web
 * stream read, a decoder step and several promise hops. Here a token costs one socket read, a split and a
 * JSON.parse. The protocol used is small (POST JSON; `data: …` lines ending with `data: [DONE]`).
 * Errors: ProviderStatusError (the server answered ≥ 400, or an error object inside the stream),
 * ProviderConnectionError (no answer: refused, reset, DNS) and ProviderAbortError (our signal); the client maps
 * them to its typed errors.
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";

/** a JSON response (a completion, a batch of embeddings) is read up to this size */
export const JSON_RESPONSE_MAX_BYTES = 64 * 1024 * 1024;
/** one server-sent event (one streamed chunk) at most; a longer one breaks the stream */
export const SSE_EVENT_MAX_CHARS = 1024 * 1024;
/** an error response's body is read up to this size (its message goes to the logs) */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

export class ProviderStatusError extends Error {
  constructor(
    /** the HTTP status (undefined: an error object sent inside a stream) */
    readonly status: number | undefined,
    /** the response's headers (lower-case names) */
    readonly headers: Record<string, string | string[] | undefined>,
    message: string,
  ) {
    super(message);
    this.name = "ProviderStatusError";
  }

  header(name: string): string | undefined {
    const v = this.headers[name];
    return Array.isArray(v) ? v[0] : v;
  }
}

export class ProviderConnectionError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "ProviderConnectionError";
  }
}

export class ProviderAbortError extends Error {
  constructor() {
    super("request aborted");
    this.name = "ProviderAbortError";
  }
}

export interface ProviderHttp {
  /** POST `body` as JSON to `path` (under the base URL); resolves with the response once its status is 2xx */
  post(path: string, body: unknown, signal: AbortSignal): Promise<IncomingMessage>;
  /** close idle keep-alive sockets */
  close(): void;
}

/** `baseURL` like https://api.openai.com/v1 (default) or http://127.0.0.1:PORT/v1. */
export function providerHttp(apiKey: string, baseURL = "https://api.openai.com/v1"): ProviderHttp {
  const base = new URL(baseURL.endsWith("/") ? baseURL : `${baseURL}/`);
  const secure = base.protocol === "https:";
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 256 })
    : new http.Agent({ keepAlive: true, maxSockets: 256 });
  const request = secure ? https.request : http.request;

  return {
    post(path, body, signal) {
      const url = new URL(path.replace(/^\//, ""), base);
      const payload = Buffer.from(JSON.stringify(body));
      return new Promise<IncomingMessage>((resolve, reject) => {
        if (signal.aborted) return reject(new ProviderAbortError());
        let settled = false;
        const req = request(url, {
          method: "POST",
          agent,
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "content-length": payload.length,
          },
        });
        const onAbort = () => {
          req.destroy(new ProviderAbortError());
        };
        signal.addEventListener("abort", onAbort, { once: true });
        const done = () => signal.removeEventListener("abort", onAbort);
        req.on("error", (err) => {
          done();
          if (settled) return;
          settled = true;
          reject(signal.aborted ? new ProviderAbortError() : new ProviderConnectionError(err));
        });
        req.on("response", (res) => {
          settled = true;
          res.on("close", done);
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve(res);
          readBody(res, ERROR_BODY_MAX_BYTES).then(
            (text) => reject(new ProviderStatusError(status, res.headers, errorMessage(status, text))),
            () => reject(new ProviderStatusError(status, res.headers, `${status} (no body)`)),
          );
        });
        req.end(payload);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** "429 Rate limit reached" from an OpenAI-style error body ({ error: { message } }), else the status and text. */
function errorMessage(status: number, text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m =
      typeof parsed.error === "string"
        ? parsed.error
        : typeof parsed.error?.message === "string"
          ? parsed.error.message
          : typeof parsed.message === "string"
            ? parsed.message
            : null;
    if (m) return `${status} ${m}`;
  } catch {
    // not JSON
  }
  return `${status} ${text.slice(0, 200)}`.trim();
}

/** The body as text, at most `max` bytes (more: rejected and the response destroyed). */
export function readBody(res: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    res.on("data", (b: Buffer) => {
      size += b.length;
      if (size > max) {
        res.destroy(new Error(`response larger than ${max} bytes`));
        return;
      }
      parts.push(b);
    });
    res.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    res.on("error", reject);
    res.on("close", () => {
      if (!res.complete) reject(new Error("response ended early"));
    });
  });
}

/** The JSON body of a 2xx response (bounded by JSON_RESPONSE_MAX_BYTES). */
export async function readJson<T>(res: IncomingMessage): Promise<T> {
  return JSON.parse(await readBody(res, JSON_RESPONSE_MAX_BYTES)) as T;
}

/**
 * The `data:` payloads of a server-sent event stream, parsed as JSON, until `data: [DONE]` or the end of the
 * response. An event carrying `{ error }` throws ProviderStatusError; a response that ends before [DONE] just
 * ends (the caller sees no finish reason); a connection broken mid-stream throws.
 */
export async function* sseJson<T>(res: IncomingMessage): AsyncGenerator<T> {
  res.setEncoding("utf8"); // split multi-byte characters are joined by the decoder
  let buffer = "";
  let data: string[] = [];
  for await (const chunk of res as AsyncIterable<string>) {
    buffer += chunk;
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const line = buffer.charCodeAt(nl - 1) === 13 ? buffer.slice(0, nl - 1) : buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line === "") {
        if (data.length > 0) {
          const payload = data.join("\n");
          data = [];
          if (payload === "[DONE]") {
            res.resume();
            return;
          }
          yield parseEvent<T>(payload, res);
        }
      } else if (line.startsWith("data:")) {
        data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      } // other fields (event:, id:, retry:) and comments (":") are not used by the protocol
      nl = buffer.indexOf("\n");
    }
    if (buffer.length + data.reduce((n, d) => n + d.length, 0) > SSE_EVENT_MAX_CHARS) {
      res.destroy();
      throw new Error(`stream event longer than ${SSE_EVENT_MAX_CHARS} characters`);
    }
  }
  // the stream ended: a last event without its blank line still counts
  if (data.length > 0 && data.join("\n") !== "[DONE]") yield parseEvent<T>(data.join("\n"), res);
}

function parseEvent<T>(payload: string, res: IncomingMessage): T {
  const parsed = JSON.parse(payload) as T & { error?: { message?: string } };
  if (parsed && typeof parsed === "object" && parsed.error) {
    throw new ProviderStatusError(undefined, res.headers, String(parsed.error.message ?? "error in stream"));
  }
  return parsed;
}
