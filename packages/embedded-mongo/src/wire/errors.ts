/**
 * MongoDB error codes the wire layer produces itself, and the conversion of any thrown error into mongod's
 * `{ ok: 0, errmsg, code, codeName }` reply shape.
 */
import type { Document } from "bson";
import { StoreError } from "../engine/types";

/** code → codeName for the codes used by the wire layer (names as in mongod's error_codes.yml) */
export const CODE_NAMES: Record<number, string> = {
  1: "InternalError",
  2: "BadValue",
  9: "FailedToParse",
  13: "Unauthorized",
  14: "TypeMismatch",
  18: "AuthenticationFailed",
  20: "IllegalOperation",
  22: "InvalidBSON",
  23: "AlreadyInitialized",
  26: "NamespaceNotFound",
  27: "IndexNotFound",
  40: "ConflictingUpdateOperators",
  43: "CursorNotFound",
  48: "NamespaceExists",
  59: "CommandNotFound",
  67: "CannotCreateIndex",
  72: "InvalidOptions",
  73: "InvalidNamespace",
  76: "NoReplicationEnabled",
  85: "IndexOptionsConflict",
  86: "IndexKeySpecsConflict",
  115: "CommandNotSupported",
  166: "CommandNotSupportedOnView",
  225: "TransactionTooOld",
  237: "CursorKilled",
  260: "InvalidResumeToken",
  280: "ChangeStreamFatalError",
  286: "ChangeStreamHistoryLost",
  292: "CursorInUse",
  352: "UnsupportedOpQueryCommand",
  10334: "BSONObjectTooLarge",
  11000: "DuplicateKey",
  40415: "Location40415",
  40571: "Location40571",
  40573: "Location40573",
  51024: "Location51024",
  5739101: "Location5739101",
};

/** Throw a StoreError with mongod's codeName for `code`. */
export function commandError(code: number, message: string, extra: Document = {}): StoreError {
  return new StoreError(code, CODE_NAMES[code] ?? `Location${code}`, message, extra);
}

/** Shorthand for the frequent "not supported by this server" answer. */
export function notSupported(what: string): StoreError {
  return commandError(115, `${what} is not supported by the embedded store`);
}

/**
 * Any error → mongod's error reply. StoreErrors keep their code; other errors (bugs, or a library error the engine
 * did not translate) become InternalError with their message, so the client sees a failure, never a wrong result.
 */
export function errorReply(err: unknown): Document {
  if (err instanceof StoreError) {
    return { ok: 0, errmsg: err.message, code: err.code, codeName: err.codeName, ...err.extra };
  }
  if (isStoreErrorLike(err)) {
    return {
      ok: 0,
      errmsg: err.message,
      code: err.code,
      codeName: err.codeName ?? CODE_NAMES[err.code] ?? "Error",
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { ok: 0, errmsg: message, code: 1, codeName: "InternalError" };
}

function isStoreErrorLike(err: unknown): err is { message: string; code: number; codeName?: string } {
  return (
    typeof err === "object" &&
    err !== null &&
    typeof (err as { code?: unknown }).code === "number" &&
    typeof (err as { message?: unknown }).message === "string"
  );
}
