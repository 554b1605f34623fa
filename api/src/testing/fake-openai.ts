/**
 * A local, OpenAI-compatible HTTP server for tests: `/v1/chat/completions` (plain and streamed as server-sent
 * events) and `/v1/embeddings`. Tests drive it through the real `openai` SDK, so the wire format here follows the
 * OpenAI API closely (ids, object names, chunk shapes, `data: [DONE]`, the usage chunk, error bodies).
 *
 * Scripted behaviour (`setBehaviour`) covers what the client must survive: slow first tokens, a token rate,
 * replies computed from the request, HTTP errors (429 with retry-after, 500), a stream whose socket is destroyed
 * mid-answer, a server that never answers, and a stream that stalls after some tokens.
 *
 * The app's request for follow-up questions (its system prompt starts with FOLLOW_UPS_PROMPT_MARKER) is told
 * apart: it is answered by its own script (`setFollowUps`; by default an empty reply, so the app keeps its
 * heading-based questions), its failures are its own, and `chatRequests()` leaves it out (`followUpRequests()`
 * lists it), so the counts of answer and title requests do not depend on when it arrives.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FOLLOW_UPS_PROMPT_MARKER } from "../chat/answer/follow-ups.model";

/** One chat message as sent by the SDK (content may be a string or a list of parts). */
export interface FakeChatMessage {
  role: string;
  content: string | Array<{ type: string; text?: string }> | null;
}

/** A request the fake received, with its parsed JSON body. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the recorded body is whatever JSON the client sent
  body: any;
}

/** The chat request as the reply script sees it. */
export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  stream: boolean;
  /** every message's content flattened to text, in order */
  texts: string[];
  // biome-ignore lint/suspicious/noExplicitAny: the raw body, for scripts that need more
  body: any;
}

export type FakeFailure =
  /** answer with this HTTP status and an OpenAI-style error body; `retryAfterSeconds` sets retry-after */
  | { type: "http"; status: number; retryAfterSeconds?: number; message?: string }
  /** stream `afterTokens` tokens, then destroy the socket (no final chunk, no [DONE]) */
  | { type: "broken"; afterTokens: number }
  /** accept the request and never send anything */
  | { type: "hang" }
  /** send headers and `afterTokens` tokens, then go silent without closing */
  | { type: "stall"; afterTokens: number };

export interface FakeOpenAIBehaviour {
  /** the assistant's reply: fixed text or computed from the request */
  reply: string | ((req: FakeChatRequest) => string);
  /** delay before the first token (streamed) or before the whole response (not streamed) */
  firstTokenDelayMs: number;
  /** delay between tokens when streaming (the token rate) */
  tokenDelayMs: number;
  /** how a reply is cut into stream tokens; default: pieces of 3 characters (splits words and [n] markers) */
  tokenize: (reply: string) => string[];
  finishReason: "stop" | "length";
  /** a failure for the next `failureCount` chat requests (then normal replies), or null */
  failure: FakeFailure | null;
  /** how many chat requests the failure applies to; default: all */
  failureCount: number;
  /** a failure for embeddings requests (http only), or null */
  embeddingsFailure: { status: number; retryAfterSeconds?: number } | null;
  /**
   * when set, a non-streamed reply that is not a follow-up request (the app's session title) also waits until
   * this settles: a test releases it once it has seen what must come first (the answer's end)
   */
  titlesHeld?: Promise<void>;
}

/** How the fake answers the app's follow-up requests (non-streamed). */
export interface FakeFollowUpsBehaviour {
  /** the reply: fixed text or computed from the request; default "" (nothing to suggest) */
  reply: string | ((req: FakeChatRequest) => string);
  /** delay before the response */
  delayMs: number;
  /** when set, the response also waits until this settles (a test releases it once it has seen what comes first) */
  held?: Promise<void>;
  /** a failure for every follow-up request (http or hang), or null */
  failure: Extract<FakeFailure, { type: "http" } | { type: "hang" }> | null;
}

export interface FakeOpenAIOptions extends Partial<FakeOpenAIBehaviour> {
  /** the follow-up requests' script (see FakeFollowUpsBehaviour) */
  followUps?: Partial<FakeFollowUpsBehaviour>;
  /** when set, requests must carry `Authorization: Bearer <apiKey>` (else 401) */
  apiKey?: string;
  /** embedding vector length; default 64 */
  dimensions?: number;
}

export interface FakeOpenAI {
  /** e.g. http://127.0.0.1:PORT/v1 — pass as the SDK's baseURL */
  baseURL: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** the chat completion requests, except the app's follow-up requests (answers, titles) */
  chatRequests(): RecordedRequest[];
  /** only the app's follow-up requests */
  followUpRequests(): RecordedRequest[];
  /** only the embeddings requests */
  embeddingRequests(): RecordedRequest[];
  /** change behaviour for following requests (unspecified fields keep their current values) */
  setBehaviour(patch: Partial<FakeOpenAIBehaviour>): void;
  /** change how follow-up requests are answered (unspecified fields keep their current values) */
  setFollowUps(patch: Partial<FakeFollowUpsBehaviour>): void;
  /** back to the options given at start */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULTS: FakeOpenAIBehaviour = {
  reply: "Dette er et svar fra den falske sprogmodel [1].",
  firstTokenDelayMs: 0,
  tokenDelayMs: 0,
  tokenize: (reply) => chunkString(reply, 3),
  finishReason: "stop",
  failure: null,
  failureCount: Number.POSITIVE_INFINITY,
  embeddingsFailure: null,
};

/** Split into pieces of `size` code points (never inside a surrogate pair). */
export function chunkString(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/**
 * Deterministic embedding: a hashed bag of lower-cased words, L2-normalised. Texts sharing words get a positive
 * cosine similarity, identical texts identical vectors. An empty text gives the zero vector.
 */
export function fakeEmbedding(text: string, dimensions = 64): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash("sha1").update(word).digest();
    const index = h.readUInt32BE(0) % dimensions;
    v[index] += h[4] & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}

const NO_FOLLOW_UPS: FakeFollowUpsBehaviour = { reply: "", delayMs: 0, failure: null };

/** Is this chat request body the app's request for follow-up questions? */
export function isFollowUpRequest(body: RecordedRequest["body"]): boolean {
  const first = Array.isArray(body?.messages) ? body.messages[0] : null;
  return first?.role === "system" && flattenContent(first.content).startsWith(FOLLOW_UPS_PROMPT_MARKER);
}

function flattenContent(content: FakeChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => p.text ?? "").join("");
  return "";
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, retryAfterSeconds?: number) {
  const headers: Record<string, string> = { "x-request-id": `req_fake_${Date.now()}` };
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  const type =
    status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  sendJson(res, status, { error: { message, type, param: null, code: type } }, headers);
}

/** Write one SSE event in two or three pieces at odd byte offsets (possibly inside a UTF-8 sequence). */
async function writeAwkwardly(res: ServerResponse, payload: string, seq: number): Promise<void> {
  const bytes = Buffer.from(payload, "utf8");
  const cuts = [1 + (seq % 5), Math.floor(bytes.length / 2) + (seq % 3)].filter(
    (c) => c > 0 && c < bytes.length,
  );
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (res.destroyed) return;
    res.write(bytes.subarray(start, cut));
    start = cut;
    // let the piece leave as its own network write before the next one
    await new Promise((r) => setImmediate(r));
  }
  // resolve once handed to the socket, so a following destroy() cannot drop it
  await new Promise<void>((r) => {
    if (res.destroyed) return r();
    res.once("close", r);
    res.write(bytes.subarray(start), () => {
      res.off("close", r);
      r();
    });
  });
}

/** Start the fake on 127.0.0.1, port 0. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const { apiKey, dimensions = 64, followUps: initialFollowUps, ...initial } = options;
  const start: FakeOpenAIBehaviour = { ...DEFAULTS, ...initial };
  let behaviour: FakeOpenAIBehaviour = { ...start };
  const startFollowUps: FakeFollowUpsBehaviour = { ...NO_FOLLOW_UPS, ...initialFollowUps };
  let followUps: FakeFollowUpsBehaviour = { ...startFollowUps };
  let failuresLeft = behaviour.failureCount;
  const requests: RecordedRequest[] = [];
  let created = 0;

  async function handleChat(res: ServerResponse, body: RecordedRequest["body"]): Promise<void> {
    let b = behaviour;
    let failure = b.failure && failuresLeft > 0 ? b.failure : null;
    if (isFollowUpRequest(body)) {
      // its own script: it must not take the failures or replies meant for answers
      const f = followUps;
      b = { ...b, reply: f.reply, firstTokenDelayMs: f.delayMs };
      failure = f.failure;
      await f.held;
    } else {
      if (failure) failuresLeft -= 1;
      if (body?.stream !== true) await b.titlesHeld;
    }
    if (!body || typeof body.model !== "string" || !Array.isArray(body.messages)) {
      sendError(res, 400, "model and messages are required");
      return;
    }
    if (failure?.type === "hang") return; // never answer; close() destroys the socket
    if (failure?.type === "http") {
      await sleep(b.firstTokenDelayMs);
      sendError(
        res,
        failure.status,
        failure.message ?? `Fake failure ${failure.status}`,
        failure.retryAfterSeconds,
      );
      return;
    }
    const messages = body.messages as FakeChatMessage[];
    const request: FakeChatRequest = {
      model: body.model,
      messages,
      stream: body.stream === true,
      texts: messages.map((m) => flattenContent(m.content)),
      body,
    };
    const reply = typeof b.reply === "function" ? b.reply(request) : b.reply;
    const id = `chatcmpl-fake${++created}`;
    const createdAt = Math.floor(Date.now() / 1000);
    const promptTokens = request.texts.join(" ").split(/\s+/).filter(Boolean).length;
    const completionTokens = b.tokenize(reply).length;
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    };

    if (!request.stream) {
      await sleep(b.firstTokenDelayMs);
      sendJson(res, 200, {
        id,
        object: "chat.completion",
        created: createdAt,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: reply, refusal: null },
            finish_reason: b.finishReason,
            logprobs: null,
          },
        ],
        usage,
      });
      return;
    }

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
    const chunk = (delta: object, finish: string | null) => ({
      id,
      object: "chat.completion.chunk",
      created: createdAt,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    let seq = 0;
    const send = (data: unknown) => writeAwkwardly(res, `data: ${JSON.stringify(data)}\n\n`, seq++);

    await sleep(b.firstTokenDelayMs);
    if (res.destroyed) return;
    await send(chunk({ role: "assistant", content: "" }, null));
    const tokens = b.tokenize(reply);
    for (let i = 0; i < tokens.length; i++) {
      if (failure && (failure.type === "broken" || failure.type === "stall") && i >= failure.afterTokens) {
        if (failure.type === "broken") res.socket?.destroy();
        return; // stall: keep the socket open, send nothing more
      }
      if (i > 0) await sleep(b.tokenDelayMs);
      if (res.destroyed) return; // the client went away (stop generation)
      await send(chunk({ content: tokens[i] }, null));
    }
    if (failure && (failure.type === "broken" || failure.type === "stall")) {
      if (failure.type === "broken") res.socket?.destroy();
      return;
    }
    await send(chunk({}, b.finishReason));
    if (body.stream_options?.include_usage) {
      await send({
        id,
        object: "chat.completion.chunk",
        created: createdAt,
        model: body.model,
        choices: [],
        usage,
      });
    }
    await writeAwkwardly(res, "data: [DONE]\n\n", seq++);
    res.end();
  }

  async function handleEmbeddings(res: ServerResponse, body: RecordedRequest["body"]): Promise<void> {
    const failure = behaviour.embeddingsFailure;
    if (failure) {
      sendError(res, failure.status, `Fake failure ${failure.status}`, failure.retryAfterSeconds);
      return;
    }
    const input: unknown = body?.input;
    const texts = typeof input === "string" ? [input] : Array.isArray(input) ? input : null;
    if (!texts || texts.some((t) => typeof t !== "string") || typeof body.model !== "string") {
      sendError(res, 400, "input must be a string or an array of strings, and model is required");
      return;
    }
    const base64 = body.encoding_format === "base64";
    const data = (texts as string[]).map((text, index) => {
      const vector = fakeEmbedding(text, dimensions);
      return {
        object: "embedding",
        index,
        embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector,
      };
    });
    const tokens = (texts as string[]).join(" ").split(/\s+/).filter(Boolean).length;
    sendJson(res, 200, {
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  const server = createServer(async (req, res) => {
    try {
      const path = (req.url ?? "/").split("?")[0];
      const raw = await readBody(req);
      let body: RecordedRequest["body"] = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      requests.push({ method: req.method ?? "GET", path, authorization: req.headers.authorization, body });
      if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`) {
        sendError(res, 401, "Incorrect API key provided");
        return;
      }
      if (req.method === "POST" && path === "/v1/chat/completions") return await handleChat(res, body);
      if (req.method === "POST" && path === "/v1/embeddings") return await handleEmbeddings(res, body);
      sendError(res, 404, `Unknown route ${req.method} ${path}`);
    } catch (err) {
      if (!res.headersSent) sendError(res, 500, String(err));
      else res.destroy();
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () =>
      requests.filter((r) => r.path === "/v1/chat/completions" && !isFollowUpRequest(r.body)),
    followUpRequests: () =>
      requests.filter((r) => r.path === "/v1/chat/completions" && isFollowUpRequest(r.body)),
    embeddingRequests: () => requests.filter((r) => r.path === "/v1/embeddings"),
    setBehaviour(patch) {
      behaviour = { ...behaviour, ...patch };
      if (patch.failure !== undefined || patch.failureCount !== undefined)
        failuresLeft = behaviour.failureCount;
    },
    setFollowUps(patch) {
      followUps = { ...followUps, ...patch };
    },
    reset() {
      behaviour = { ...start };
      followUps = { ...startFollowUps };
      failuresLeft = behaviour.failureCount;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // hanging and stalled requests would otherwise keep the server open
        server.closeAllConnections();
      });
    },
  };
}
