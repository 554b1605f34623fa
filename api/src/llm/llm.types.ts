/** Types of the LLM client (api/src/llm/llm.client.ts). */

/** One chat message sent to the model. */
export interface LlmMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Plain options; the config module builds them from the environment (this module never reads process.env). */
export interface LlmClientOptions {
  apiKey: string;
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:PORT/v1 */
  baseURL?: string;
  /** chat model */
  model: string;
  /** embedding model; without it `embed()` throws LlmUnavailableError */
  embeddingModel?: string;
  /** overall time limit per call, from request to last token (ms) */
  timeoutMs: number;
  /** time limit until the first streamed token (ms); default min(30 s, timeoutMs) */
  firstTokenTimeoutMs?: number;
  /**
   * Retries for 429, 5xx and connection failures — only before any token has streamed (a retry after tokens
   * would duplicate text the user already saw).
   */
  maxRetries: number;
  /** a retry-after longer than this is not waited for: the call fails with LlmRateLimitedError (ms, default 5000) */
  maxRetryWaitMs?: number;
  /** texts per embeddings request (default 64) */
  embeddingBatchSize?: number;
  /** sampling temperature for chat (default 0.2: answers should stick to the sources) */
  temperature?: number;
  /**
   * Ask for the usage chunk at the end of a stream (`stream_options.include_usage`). Default true; turn off for
   * OpenAI-compatible servers that reject stream_options.
   */
  includeUsage?: boolean;
  /** the fetch the SDK calls (default: llm.fetch.ts over node:http; bench/cluster.llm.ts compares the built-in one) */
  fetch?: typeof fetch;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface StreamChatOptions {
  /** aborting stops generation; the call then rejects with LlmAbortedError carrying the partial text */
  signal?: AbortSignal;
  /** called with each text delta, in order, as it arrives */
  onToken?: (delta: string) => void;
  maxTokens?: number;
}

export interface StreamChatResult {
  /** the whole generated text */
  text: string;
  /** the model's finish reason: 'stop', 'length' (cut off at max tokens), 'content_filter', … */
  finishReason: string;
  usage?: LlmUsage;
}

export interface CompleteOptions {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
}

/** The one client of the LLM provider. Every method throws only LlmError subclasses. */
export interface LlmClient {
  readonly model: string;
  readonly embeddingModel: string | undefined;
  /** Stream a chat completion token by token. */
  streamChat(messages: LlmMessage[], options?: StreamChatOptions): Promise<StreamChatResult>;
  /** A short non-streamed completion (e.g. naming a session); returns the trimmed text. */
  complete(messages: LlmMessage[], options?: CompleteOptions): Promise<string>;
  /** Embed texts (batched); returns one vector per text, in input order. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
