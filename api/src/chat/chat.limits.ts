import { CHAT_MESSAGES_PER_SESSION_MAX, CHAT_SESSIONS_PER_USER_MAX } from "@vidensbank/shared";
import { FOLLOW_UPS_MODEL_TIMEOUT_MS } from "./answer/follow-ups.model";

/** Limits of the chat assistant. Defaults here; tests and deployments override them via AppConfig.chatLimits. */
export interface ChatLimits {
  /** answers one user may have in flight at once; beyond it TOO_MANY_REQUESTS */
  maxInFlightPerUser: number;
  /** the LLM's overall time limit per answer (ms) */
  llmTimeoutMs: number;
  /** the LLM's time limit until the first token (ms) */
  llmFirstTokenTimeoutMs: number;
  /** LLM retries before the first token (429, 5xx, connection) */
  llmMaxRetries: number;
  /** a provider's retry-after longer than this fails fast instead of waiting (ms) */
  llmMaxRetryWaitMs: number;
  /** how often a generating answer saves its partial text and shows life (ms) */
  heartbeatMs: number;
  /** an answer pending/streaming without a heartbeat for this long belongs to a dead process (ms) */
  staleAfterMs: number;
  /** earlier messages loaded for follow-ups (the prompt selects within its own budget) */
  historyMessages: number;
  /** the model's time limit for writing an answer's follow-up questions (ms); past it the heading-based stay */
  followUpsTimeoutMs: number;
  /** sessions one user may have; beyond it CHAT_SESSION_LIMIT (chat.session-count.ts) */
  sessionsPerUser: number;
  /** messages one session may hold, every branch; beyond it CHAT_SESSION_FULL (chat.message-count.ts) */
  messagesPerSession: number;
}

export const DEFAULT_CHAT_LIMITS: ChatLimits = {
  maxInFlightPerUser: 2,
  llmTimeoutMs: 90_000,
  llmFirstTokenTimeoutMs: 30_000,
  llmMaxRetries: 2,
  llmMaxRetryWaitMs: 5_000,
  heartbeatMs: 2_000,
  staleAfterMs: 30_000,
  historyMessages: 12,
  followUpsTimeoutMs: FOLLOW_UPS_MODEL_TIMEOUT_MS,
  sessionsPerUser: CHAT_SESSIONS_PER_USER_MAX,
  messagesPerSession: CHAT_MESSAGES_PER_SESSION_MAX,
};

/** Default chat model when OPENAI_BASE_URL / OPENAI_API_KEY is set without OPENAI_MODEL. */
export const DEFAULT_CHAT_MODEL = "gpt-4o-mini";
