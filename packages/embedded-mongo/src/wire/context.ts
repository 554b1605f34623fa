/** What a command handler can see: the engine, the cursors, the server and the calling connection. */
import type { Document } from "bson";
import type { Engine } from "../engine/types";
import type { CursorManager } from "./cursors";
import type { RetryableWrites } from "./retryable";

export interface StoreLogger {
  info(msg: string, ...args: unknown[]): void;
  warn(msg: string, ...args: unknown[]): void;
  error(msg: string, ...args: unknown[]): void;
}

export const silentLogger: StoreLogger = { info() {}, warn() {}, error() {} };

export interface ServerState {
  engine: Engine;
  cursors: CursorManager;
  logger: StoreLogger;
  startedAt: number;
  host: string;
  port: number;
  connections: { current: number; totalCreated: number };
  /** the replica set name hello reports */
  replicaSet: string;
  retryableWrites: RetryableWrites;
  /** the users a connection must log in as (SCRAM-SHA-256, auth.ts) */
  auth: UserStore;
}

/** what SCRAM keeps of a user: enough to check a proof, nothing from which the password follows cheaply */
export interface ScramUser {
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

export interface UserStore {
  lookup(db: string, user: string): ScramUser | undefined;
  /** a stable stand-in salt for a user that does not exist */
  fakeSalt(db: string, user: string): Buffer;
}

/** one connection's login state (auth.ts) */
export interface ConnectionAuth {
  /** the logged-in user */
  user?: string;
  /** a SCRAM exchange between its first and second message */
  conversation?: { id: number; user: string; nonce: string; firstBare: string; serverFirst: string };
  failures: number;
}

export interface ConnectionInfo {
  id: number;
  /** "ip:port" of the client */
  remote: string;
  /** "host:port" the client reached the store at: hello's me, hosts and primary */
  advertised: string;
  /** whether and as whom this connection has logged in */
  auth: ConnectionAuth;
}

export interface CommandContext {
  server: ServerState;
  conn: ConnectionInfo;
  /** the command's database ($db) */
  db: string;
  /** byte length of the wire message carrying the command */
  messageLength: number;
  /** BSON sizes of documents that arrived in OP_MSG kind-1 sequences, by field name */
  sequenceSizes: Record<string, number[]>;
}

export type CommandHandler = (ctx: CommandContext, cmd: Document) => Document | Promise<Document>;
