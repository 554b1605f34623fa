/**
 * Typed errors of the LLM client. Each carries a stable `code` (for GraphQL `extensions.code`, REST `code` and the
 * stored message's error state), a Danish `message` meant for people, the text streamed before the failure
 * (`partialText`) and a `detail` for logs (never shown to users). The texts are in the shared catalogue (llm.*).
 */
import { formatMessage } from "@vidensbank/shared";

export type LlmErrorCode =
  | "LLM_RATE_LIMITED"
  | "LLM_UNAVAILABLE"
  | "LLM_TIMEOUT"
  | "LLM_STREAM_BROKEN"
  | "LLM_ABORTED";

export interface LlmErrorInit {
  /** text received before the failure (empty when nothing had streamed) */
  partialText?: string;
  /** technical detail for logs: provider status, SDK message */
  detail?: string;
  cause?: unknown;
}

export abstract class LlmError extends Error {
  abstract readonly code: LlmErrorCode;
  /** whether trying again later can help */
  abstract readonly retryable: boolean;
  readonly partialText: string;
  readonly detail: string | undefined;

  constructor(message: string, init: LlmErrorInit = {}) {
    super(message, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.name = new.target.name;
    this.partialText = init.partialText ?? "";
    this.detail = init.detail;
  }
}

/** The provider answered 429 (too many requests or quota). */
export class LlmRateLimitedError extends LlmError {
  readonly code = "LLM_RATE_LIMITED" as const;
  readonly retryable = true;
  /** seconds the provider asked us to wait, when it said */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: LlmErrorInit & { retryAfterSeconds?: number } = {}) {
    super(
      init.retryAfterSeconds !== undefined && init.retryAfterSeconds > 0
        ? formatMessage("llm.rateLimitedWait", { seconds: Math.ceil(init.retryAfterSeconds) })
        : formatMessage("llm.rateLimited"),
      init,
    );
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** The provider could not be reached, answered 5xx, refused the request (4xx) or is not configured. */
export class LlmUnavailableError extends LlmError {
  readonly code = "LLM_UNAVAILABLE" as const;
  readonly retryable: boolean;
  /** HTTP status from the provider, when there was one */
  readonly status: number | undefined;

  constructor(init: LlmErrorInit & { status?: number; retryable?: boolean; message?: string } = {}) {
    super(init.message ?? formatMessage("llm.unavailable"), init);
    this.status = init.status;
    this.retryable = init.retryable ?? true;
  }
}

/** No first token within the first-token timeout, or the whole answer took longer than the overall timeout. */
export class LlmTimeoutError extends LlmError {
  readonly code = "LLM_TIMEOUT" as const;
  readonly retryable = true;
  readonly phase: "first_token" | "overall";

  constructor(init: LlmErrorInit & { phase: "first_token" | "overall" }) {
    super(formatMessage(init.phase === "first_token" ? "llm.timeoutFirstToken" : "llm.timeoutOverall"), init);
    this.phase = init.phase;
  }
}

/** The stream ended or failed before the model finished (connection dropped, garbled data). */
export class LlmStreamBrokenError extends LlmError {
  readonly code = "LLM_STREAM_BROKEN" as const;
  readonly retryable = true;

  constructor(init: LlmErrorInit = {}) {
    super(formatMessage("llm.streamBroken"), init);
  }
}

/** The caller aborted (the user pressed stop). `partialText` holds what was generated until then. */
export class LlmAbortedError extends LlmError {
  readonly code = "LLM_ABORTED" as const;
  readonly retryable = false;

  constructor(init: LlmErrorInit = {}) {
    super("Svaret blev stoppet.", init);
  }
}

export function isLlmError(err: unknown): err is LlmError {
  return err instanceof LlmError;
}
