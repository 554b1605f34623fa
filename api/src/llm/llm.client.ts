/**
 * The one module that owns the OpenAI SDK. Works with any OpenAI-compatible server (OPENAI_BASE_URL).
 *
 * Retries: the SDK's own retries are switched off (maxRetries: 0) and done here instead, because
 *  - a retry is only safe before the first token: once text has streamed to the user, retrying would repeat or
 *    contradict it, so a failure after that point is reported (LlmStreamBrokenError) and never retried;
 *  - the SDK waits whatever retry-after the provider sends (could be minutes); here a long retry-after fails fast
 *    with LlmRateLimitedError so the user gets an answer instead of a spinner;
 *  - retries must count against our first-token and overall deadlines.
 * Timeouts: a first-token timeout (the provider accepted but nothing comes) and an overall timeout, both enforced
 * with our own AbortController so the partial text survives and the error says which limit was hit.
 */
import { formatMessage } from "@vidensbank/shared";
import OpenAI from "openai";
import {
  isLlmError,
  LlmAbortedError,
  type LlmError,
  LlmRateLimitedError,
  LlmStreamBrokenError,
  LlmTimeoutError,
  LlmUnavailableError,
} from "./llm.errors";
import { leanFetch } from "./llm.fetch";
import type {
  CompleteOptions,
  LlmClient,
  LlmClientOptions,
  LlmMessage,
  LlmUsage,
  StreamChatOptions,
  StreamChatResult,
} from "./llm.types";

const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRY_WAIT_MS = 5_000;
const DEFAULT_EMBEDDING_BATCH_SIZE = 64;
const DEFAULT_TEMPERATURE = 0.2;

type AbortReason = "user" | "first_token" | "overall";

/** One call's deadlines and abort state: the caller's signal plus our timers feed one AbortController. */
class CallGuard {
  readonly controller = new AbortController();
  reason: AbortReason | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private firstTokenTimer: NodeJS.Timeout | undefined;
  private readonly onUserAbort = () => this.abort("user");

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    overallMs: number,
    firstTokenMs?: number,
  ) {
    if (userSignal?.aborted) this.abort("user");
    userSignal?.addEventListener("abort", this.onUserAbort, { once: true });
    this.timers.push(setTimeout(() => this.abort("overall"), overallMs));
    if (firstTokenMs !== undefined) {
      this.firstTokenTimer = setTimeout(() => this.abort("first_token"), firstTokenMs);
      this.timers.push(this.firstTokenTimer);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: AbortReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort();
  }

  firstTokenArrived(): void {
    if (this.firstTokenTimer) clearTimeout(this.firstTokenTimer);
    this.firstTokenTimer = undefined;
  }

  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.userSignal?.removeEventListener("abort", this.onUserAbort);
  }
}

/** Seconds from retry-after-ms / retry-after (seconds or HTTP date), if the provider sent one. */
function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms)) return ms / 1000;
  const raw = headers?.get("retry-after");
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : undefined;
}

function isRetryable(err: unknown): boolean {
  if (err instanceof OpenAI.APIUserAbortError) return false;
  if (err instanceof OpenAI.APIConnectionError) return true; // includes connection timeouts
  if (err instanceof OpenAI.APIError && typeof err.status === "number") {
    return err.status === 408 || err.status === 429 || err.status >= 500;
  }
  return false;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new OpenAI.APIUserAbortError());
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new OpenAI.APIUserAbortError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Map anything thrown during a call to one of our typed errors. */
function toLlmError(
  err: unknown,
  guard: CallGuard,
  partialText: string,
  phase: "request" | "stream",
): LlmError {
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const init = { partialText, detail, cause: err };
  if (guard.reason === "user") return new LlmAbortedError(init);
  if (guard.reason === "first_token" || guard.reason === "overall") {
    return new LlmTimeoutError({ ...init, phase: guard.reason });
  }
  if (isLlmError(err)) return err;
  if (phase === "stream") return new LlmStreamBrokenError(init);
  if (err instanceof OpenAI.APIUserAbortError) return new LlmAbortedError(init);
  if (err instanceof OpenAI.APIConnectionTimeoutError)
    return new LlmTimeoutError({ ...init, phase: "overall" });
  if (err instanceof OpenAI.RateLimitError) {
    return new LlmRateLimitedError({ ...init, retryAfterSeconds: retryAfterSeconds(err.headers) });
  }
  if (err instanceof OpenAI.APIError && typeof err.status === "number") {
    return new LlmUnavailableError({ ...init, status: err.status, retryable: isRetryable(err) });
  }
  return new LlmUnavailableError(init);
}

function toUsage(u: OpenAI.CompletionUsage | null | undefined): LlmUsage | undefined {
  if (!u) return undefined;
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: u.completion_tokens,
    totalTokens: u.total_tokens,
  };
}

/**
 * Create the LLM client from plain options (the config module supplies them). Every method rejects only with
 * LlmError subclasses (see llm.errors.ts).
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const firstTokenTimeoutMs = Math.min(
    options.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
    options.timeoutMs,
  );
  const maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  const batchSize = Math.max(1, options.embeddingBatchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE);
  const temperature = options.temperature ?? DEFAULT_TEMPERATURE;
  const sdk = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    // node:http with a keep-alive agent instead of the built-in fetch: less CPU per call and per token (llm.fetch.ts)
    fetch: options.fetch ?? leanFetch().fetch,
    maxRetries: 0, // retries are ours, see the module comment
    // a backstop only: our own overall timer fires first and keeps the partial text
    timeout: Math.ceil(options.timeoutMs + 1_000),
  });

  /** Run `attempt` with our retry policy: only retryable errors, only within the wait limit and the deadlines. */
  async function withRetries<T>(guard: CallGuard, attempt: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt();
      } catch (err) {
        if (guard.reason || n >= options.maxRetries || !isRetryable(err)) throw err;
        const asked =
          err instanceof OpenAI.APIError ? retryAfterSeconds(err.headers as Headers | undefined) : undefined;
        // exponential backoff with jitter when the provider did not say how long to wait
        const waitMs =
          asked !== undefined ? asked * 1000 : Math.min(2_000, 250 * 2 ** n) * (0.75 + Math.random() / 4);
        if (waitMs > maxRetryWaitMs) throw err;
        await sleep(waitMs, guard.signal);
      }
    }
  }

  return {
    model: options.model,
    embeddingModel: options.embeddingModel,

    async streamChat(messages: LlmMessage[], opts: StreamChatOptions = {}): Promise<StreamChatResult> {
      const guard = new CallGuard(opts.signal, options.timeoutMs, firstTokenTimeoutMs);
      let text = "";
      let phase: "request" | "stream" = "request";
      try {
        if (guard.reason) throw new LlmAbortedError();
        const stream = await withRetries(guard, () =>
          sdk.chat.completions.create(
            {
              model: options.model,
              messages,
              stream: true,
              temperature,
              ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
              ...(options.includeUsage === false ? {} : { stream_options: { include_usage: true } }),
            },
            { signal: guard.signal },
          ),
        );
        phase = "stream";
        let finishReason: string | null = null;
        let usage: LlmUsage | undefined;
        for await (const chunk of stream) {
          const choice = chunk.choices?.[0];
          const delta = choice?.delta?.content;
          if (delta) {
            guard.firstTokenArrived();
            text += delta;
            opts.onToken?.(delta);
          }
          if (choice?.finish_reason) finishReason = choice.finish_reason;
          if (chunk.usage) usage = toUsage(chunk.usage);
        }
        // the SDK ends the iteration quietly when aborted: find out why it ended
        if (guard.reason) throw new LlmAbortedError({ partialText: text });
        if (!finishReason) {
          throw new LlmStreamBrokenError({
            partialText: text,
            detail: "stream ended without a finish_reason",
          });
        }
        return { text, finishReason, usage };
      } catch (err) {
        throw toLlmError(err, guard, text, phase);
      } finally {
        guard.dispose();
      }
    },

    async complete(messages: LlmMessage[], opts: CompleteOptions = {}): Promise<string> {
      const guard = new CallGuard(opts.signal, options.timeoutMs);
      try {
        if (guard.reason) throw new LlmAbortedError();
        const res = await withRetries(guard, () =>
          sdk.chat.completions.create(
            {
              model: options.model,
              messages,
              temperature: opts.temperature ?? temperature,
              ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
            },
            { signal: guard.signal },
          ),
        );
        const content = res.choices?.[0]?.message?.content;
        if (typeof content !== "string") {
          throw new LlmUnavailableError({ detail: "completion without message content", retryable: true });
        }
        return content.trim();
      } catch (err) {
        throw toLlmError(err, guard, "", "request");
      } finally {
        guard.dispose();
      }
    },

    async embed(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<number[][]> {
      const model = options.embeddingModel;
      if (!model) {
        throw new LlmUnavailableError({
          message: formatMessage("llm.noEmbeddingModel"),
          detail: "embed() called without embeddingModel",
          retryable: false,
        });
      }
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts.slice(i, i + batchSize);
        const guard = new CallGuard(opts.signal, options.timeoutMs);
        try {
          if (guard.reason) throw new LlmAbortedError();
          // 'float' explicitly: the SDK's default (base64) is not supported by every OpenAI-compatible server
          const res = await withRetries(guard, () =>
            sdk.embeddings.create(
              { model, input: batch, encoding_format: "float" },
              { signal: guard.signal },
            ),
          );
          const vectors: Array<number[] | undefined> = Array.from({ length: batch.length }, () => undefined);
          for (const d of res.data ?? []) vectors[d.index] = Array.from(d.embedding);
          if (vectors.some((v) => !v) || res.data.length !== batch.length) {
            throw new LlmUnavailableError({
              detail: `embeddings: expected ${batch.length} vectors, got ${res.data?.length ?? 0}`,
            });
          }
          out.push(...(vectors as number[][]));
        } catch (err) {
          throw toLlmError(err, guard, "", "request");
        } finally {
          guard.dispose();
        }
      }
      return out;
    },
  };
}
