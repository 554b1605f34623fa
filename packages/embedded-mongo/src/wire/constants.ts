/** Wire-protocol constants and the limits this server advertises in its hello reply. */

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

/** OP_MSG flag bits */
export const MSG_CHECKSUM_PRESENT = 1 << 0;
export const MSG_MORE_TO_COME = 1 << 1;
export const MSG_EXHAUST_ALLOWED = 1 << 16;
/** bits 0-15 are "required": a receiver must reject a message carrying one it does not know */
export const MSG_REQUIRED_BITS_MASK = 0xffff;
export const MSG_KNOWN_BITS = MSG_CHECKSUM_PRESENT | MSG_MORE_TO_COME | MSG_EXHAUST_ALLOWED;

/** OP_REPLY responseFlags */
export const REPLY_CURSOR_NOT_FOUND = 1 << 0;
export const REPLY_QUERY_FAILURE = 1 << 1;
export const REPLY_AWAIT_CAPABLE = 1 << 3;

export const HEADER_SIZE = 16;

export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
/** mongod lets a command document exceed the user limit by this much (room for the command envelope) */
export const MAX_BSON_INTERNAL_SIZE = MAX_BSON_OBJECT_SIZE + 16 * 1024;
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;

export const MIN_WIRE_VERSION = 0;
/** 21 = MongoDB 7.0, well inside what driver 7.x accepts (9..29) */
export const MAX_WIRE_VERSION = 21;
export const SERVER_VERSION = "7.0.0";
export const SERVER_VERSION_ARRAY = [7, 0, 0, 0];
export const FEATURE_COMPATIBILITY_VERSION = "7.0";
export const LOGICAL_SESSION_TIMEOUT_MINUTES = 30;

/** default number of documents in a cursor's first batch (mongod: 101) */
export const DEFAULT_FIRST_BATCH_SIZE = 101;
/** a batch stops growing once its documents reach this many bytes so the reply stays under the BSON limit */
export const MAX_BATCH_BYTES = MAX_BSON_OBJECT_SIZE - 64 * 1024;
/** idle cursors are closed after this long (mongod: cursorTimeoutMillis = 10 minutes) */
export const CURSOR_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
