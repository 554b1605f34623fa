/** CLI errors and exit codes: one mapping from domain error codes to process exit codes. */

import { AppError, ConfigError, type ErrorCode } from "@vidensbank/api/cli";

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  forbidden: 5,
  config: 6,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = "CliError";
  }
}

const BY_CODE: Partial<Record<ErrorCode, number>> = {
  BAD_USER_INPUT: EXIT.usage,
  INVALID_TOKEN: EXIT.usage,
  NOT_FOUND: EXIT.notFound,
  CONFLICT: EXIT.conflict,
  FORBIDDEN: EXIT.forbidden,
  UNAUTHENTICATED: EXIT.forbidden,
  NOTION_TOKEN_INVALID: EXIT.usage,
  NOTION_UNAVAILABLE: EXIT.unexpected,
  SCOPE_ARTICLE_NOT_FOUND: EXIT.usage,
  CHAT_SESSION_LIMIT: EXIT.conflict,
  CHAT_SESSION_FULL: EXIT.conflict,
};

/** The message to print and the exit code for any error. */
export function describeError(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof ConfigError) return { message: err.message, exitCode: EXIT.config };
  if (err instanceof AppError) {
    const details =
      err.fields && err.fields.length > 1
        ? err.fields.map((f) => `  ${f.field}: ${f.message}`).join("\n")
        : "";
    return {
      message: details ? `${err.message}\n${details}` : err.message,
      exitCode: BY_CODE[err.code] ?? EXIT.unexpected,
    };
  }
  return {
    message: `Uventet fejl: ${err instanceof Error ? err.message : String(err)}`,
    exitCode: EXIT.unexpected,
  };
}
