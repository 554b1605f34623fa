/**
 * Domain errors with a stable code and a message key. One mapper (here) gives the HTTP status for REST and the
 * code for GraphQL `extensions.code`. The text comes from the catalogue in @vidensbank/shared: `message` is the
 * Danish text (what REST and GraphQL send as `message`), `key` and `params` let a client show it in its own
 * language. An AppError takes a catalogue key, never a text: the types refuse anything else.
 */
import {
  type ErrorCode,
  type FieldError,
  formatMessage,
  isMessageKey,
  type MessageKey,
  type MessageParams,
} from "@vidensbank/shared";

export type { ErrorCode } from "@vidensbank/shared";

const STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  INVALID_TOKEN: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  // the request is fine but asks for more than one answer may hold (413 would blame the request body)
  RESPONSE_TOO_LARGE: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  NOTION_TOKEN_INVALID: 400,
  NOTION_UNAVAILABLE: 502,
  // the session exists; what the request names in it does not
  SCOPE_ARTICLE_NOT_FOUND: 400,
  // the request is fine, the user's stored chats are at their bound (409 like CONFLICT: the state refuses it)
  CHAT_SESSION_LIMIT: 409,
  CHAT_SESSION_FULL: 409,
};

export const GENERIC_ERROR_MESSAGE = formatMessage("errors.internal");

/** A field error as REST and GraphQL send it: the field and the Danish text. */
export interface FieldMessage {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  /** the catalogue key of `message` */
  readonly key: MessageKey;
  readonly params: MessageParams;
  /** per-field errors (BAD_USER_INPUT), by key */
  readonly fieldErrors?: FieldError[];
  /** seconds until a retry may succeed (TOO_MANY_REQUESTS) */
  readonly retryAfter?: number;

  constructor(
    code: ErrorCode,
    key: MessageKey,
    params: MessageParams = {},
    extra: { fields?: FieldError[]; retryAfter?: number } = {},
  ) {
    // the types already refuse a text; this catches a cast or a key from outside
    if (!isMessageKey(key))
      throw new TypeError(`AppError needs a message key from the catalogue, got "${key}"`);
    super(formatMessage(key, params, "da"));
    this.name = "AppError";
    this.code = code;
    this.key = key;
    this.params = params;
    this.fieldErrors = extra.fields;
    this.retryAfter = extra.retryAfter;
  }

  get status(): number {
    return STATUS[this.code];
  }

  /** The field errors as sent to clients ({ field, message } with the Danish text), when there are any. */
  get fields(): FieldMessage[] | undefined {
    return this.fieldErrors?.map((f) => ({ field: f.field, message: formatMessage(f.key, f.params, "da") }));
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export function statusForCode(code: ErrorCode): number {
  return STATUS[code];
}

export const Errors = {
  badInput: (key: MessageKey, params?: MessageParams) => new AppError("BAD_USER_INPUT", key, params),
  /** Field errors: the first one's message becomes the error's message. */
  invalidFields: (fields: FieldError[]) =>
    new AppError("BAD_USER_INPUT", fields[0].key, fields[0].params, { fields }),
  /** One field error. */
  invalidField: (field: string, key: MessageKey, params?: MessageParams) =>
    Errors.invalidFields([{ field, key, ...(params ? { params } : {}) }]),
  unauthenticated: (key: MessageKey = "errors.unauthenticated") => new AppError("UNAUTHENTICATED", key),
  forbidden: (key: MessageKey = "errors.forbidden") => new AppError("FORBIDDEN", key),
  notFound: (key: MessageKey = "errors.notFound") => new AppError("NOT_FOUND", key),
  conflict: (key: MessageKey, params?: MessageParams) => new AppError("CONFLICT", key, params),
  emailNotVerified: () => new AppError("EMAIL_NOT_VERIFIED", "errors.emailNotVerified"),
  invalidCredentials: () => new AppError("INVALID_CREDENTIALS", "errors.invalidCredentials"),
  invalidToken: (key: MessageKey = "errors.invalidToken") => new AppError("INVALID_TOKEN", key),
  tooManyRequests: (retryAfter: number) => {
    const [key, params] = waitMessage(retryAfter);
    return new AppError("TOO_MANY_REQUESTS", key, params, { retryAfter });
  },
  payloadTooLarge: () => new AppError("PAYLOAD_TOO_LARGE", "errors.payloadTooLarge"),
  internal: () => new AppError("INTERNAL_SERVER_ERROR", "errors.internal"),
};

function waitMessage(seconds: number): [MessageKey, MessageParams] {
  if (seconds === 1) return ["errors.tooManyAttemptsSecond", {}];
  if (seconds < 60) return ["errors.tooManyAttemptsSeconds", { seconds }];
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1
    ? ["errors.tooManyAttemptsMinute", {}]
    : ["errors.tooManyAttemptsMinutes", { minutes }];
}
