/**
 * Domain errors with a stable code. One mapper (here) gives the HTTP status for REST and the code for GraphQL
 * `extensions.code`. Messages are Danish text for people.
 */
import type { FieldError } from "./users/user.rules";

export type ErrorCode =
  | "BAD_USER_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "EMAIL_NOT_VERIFIED"
  | "INVALID_CREDENTIALS"
  | "INVALID_TOKEN"
  | "TOO_MANY_REQUESTS"
  | "PAYLOAD_TOO_LARGE"
  | "RESPONSE_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "REQUEST_TIMEOUT"
  | "HEADERS_TOO_LARGE"
  | "INTERNAL_SERVER_ERROR";

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
};

export const GENERIC_ERROR_MESSAGE = "Der opstod en uventet fejl. Prøv igen senere.";

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldError[];
  /** seconds until a retry may succeed (TOO_MANY_REQUESTS) */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, extra: { fields?: FieldError[]; retryAfter?: number } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = extra.fields;
    this.retryAfter = extra.retryAfter;
  }

  get status(): number {
    return STATUS[this.code];
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export function statusForCode(code: ErrorCode): number {
  return STATUS[code];
}

export const Errors = {
  badInput: (message: string, fields?: FieldError[]) => new AppError("BAD_USER_INPUT", message, { fields }),
  /** Field errors: the first message becomes the error's message. */
  invalidFields: (fields: FieldError[]) => new AppError("BAD_USER_INPUT", fields[0].message, { fields }),
  unauthenticated: (message = "Du skal være logget ind") => new AppError("UNAUTHENTICATED", message),
  forbidden: (message = "Du har ikke adgang til denne handling") => new AppError("FORBIDDEN", message),
  notFound: (message = "Ikke fundet") => new AppError("NOT_FOUND", message),
  conflict: (message: string) => new AppError("CONFLICT", message),
  emailNotVerified: () =>
    new AppError(
      "EMAIL_NOT_VERIFIED",
      "Din konto er ikke bekræftet endnu. Tjek din email og klik på bekræftelseslinket.",
    ),
  invalidCredentials: () => new AppError("INVALID_CREDENTIALS", "Ugyldige login oplysninger"),
  invalidToken: (message = "Linket er ugyldigt eller udløbet") => new AppError("INVALID_TOKEN", message),
  tooManyRequests: (retryAfter: number) =>
    new AppError("TOO_MANY_REQUESTS", `For mange forsøg. Prøv igen om ${formatWait(retryAfter)}.`, {
      retryAfter,
    }),
  payloadTooLarge: () => new AppError("PAYLOAD_TOO_LARGE", "Forespørgslen er for stor"),
  internal: () => new AppError("INTERNAL_SERVER_ERROR", GENERIC_ERROR_MESSAGE),
};

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} sekunder`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minut" : `${minutes} minutter`;
}
