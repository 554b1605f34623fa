/**
 * Retryable writes: a driver talking to a replica set sends each write with the session's `lsid` and a
 * `txnNumber`, and sends it again after a network error. The reply of each session's latest write is kept,
 * so a retry is answered from it instead of being applied twice. Transactions (startTransaction, autocommit)
 * are not supported.
 */
import type { Document } from "bson";
import { commandError } from "./errors";

/** the commands a driver retries */
const RETRYABLE = new Set(["insert", "update", "delete", "findAndModify", "findandmodify"]);
/** sessions whose last write is remembered (the oldest are forgotten first) */
export const MAX_REMEMBERED_SESSIONS = 10_000;

export const TRANSACTIONS_MESSAGE = "Transactions are not supported by the embedded store";

interface LastWrite {
  txnNumber: number;
  reply: Promise<Document>;
}

export class RetryableWrites {
  private readonly sessions = new Map<string, LastWrite>();

  constructor(private readonly maxSessions = MAX_REMEMBERED_SESSIONS) {}

  /** Runs `execute` once per (session, txnNumber); a retry gets the first attempt's reply. */
  async run(name: string, cmd: Document, execute: () => Promise<Document>): Promise<Document> {
    if (cmd.startTransaction !== undefined || cmd.autocommit !== undefined)
      throw commandError(20, TRANSACTIONS_MESSAGE);
    if (cmd.txnNumber === undefined) return execute();
    if (!RETRYABLE.has(name)) {
      throw commandError(
        50768,
        `txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and ${name} is not a retryable write command.`,
      );
    }
    const txnNumber = Number(cmd.txnNumber);
    const id = (cmd.lsid as Document | undefined)?.id as { toString(enc: string): string } | undefined;
    if (!Number.isSafeInteger(txnNumber) || txnNumber < 0 || !id)
      throw commandError(72, "a retryable write needs an lsid and a non-negative txnNumber");
    const key = id.toString("hex");
    const last = this.sessions.get(key);
    if (last && txnNumber < last.txnNumber) {
      throw commandError(
        225,
        `Retryable write with txnNumber ${txnNumber} is prohibited on session ${key} because a newer retryable write with txnNumber ${last.txnNumber} has already started on this session.`,
      );
    }
    if (last && txnNumber === last.txnNumber) return last.reply;
    const reply = execute();
    this.sessions.delete(key);
    this.sessions.set(key, { txnNumber, reply });
    if (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    const result = await reply;
    // a command that failed as a whole was not applied: a retry runs it again
    if (result.ok !== 1 && this.sessions.get(key)?.reply === reply) this.sessions.delete(key);
    return result;
  }
}
