/**
 * @vidensbank/embedded-mongo: the package's one public entry.
 *
 * The embedded MongoDB-compatible store: a storage engine behind a MongoDB wire-protocol server on 127.0.0.1.
 * The app, mongoose and the mongodb driver reach it through an ordinary mongodb:// URI.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createEngine } from "./engine";
import type { Engine } from "./engine/types";
import { startWireServer } from "./server";
import { storeUri } from "./uri";
import type { Credentials } from "./wire/auth";
import type { StoreLogger } from "./wire/context";

export type { Engine } from "./engine/types";
export { StoreError } from "./engine/types";
export type { Credentials } from "./wire/auth";
export type { StoreLogger } from "./wire/context";

/** the user clients log in as when no credentials are given */
export const DEFAULT_STORE_USER = "vidensbank";

export interface EmbeddedStoreOptions {
  /** interface to listen on (default 127.0.0.1) */
  host?: string;
  /** TCP port; 0 or omitted = an ephemeral port */
  port?: number;
  /** data directory (default ./data/db); ignored when `memory` is true */
  dbpath?: string;
  /** keep everything in memory, nothing on disk */
  memory?: boolean;
  /**
   * fsync the write-ahead log before acknowledging each write (default false: the log is written with write(),
   * so acknowledged writes survive the process being killed but not a power loss or an OS crash)
   */
  fsync?: boolean;
  /** how often expired TTL documents are removed (default 60 s, like mongod) */
  ttlIntervalMs?: number;
  logger?: StoreLogger;
  /** the replica set name hello reports (default "rs0"); a URI may name it: ?replicaSet=rs0 */
  replicaSet?: string;
  /**
   * how much change history is kept in memory for change streams to resume from (default 50,000 changes and
   * 64 MiB of documents); a resume point older than that fails with 286 ChangeStreamHistoryLost
   */
  changeStreamHistory?: { maxEvents?: number; maxBytes?: number };
  /**
   * the one user clients must log in as (SCRAM-SHA-256, authSource admin); default user `vidensbank` with a random
   * password for this start. Only a salted hash of the password is kept; `uri` carries it for this process's use.
   */
  credentials?: Partial<Credentials>;
}

export interface EmbeddedStore {
  /**
   * e.g. mongodb://vidensbank:<password>@127.0.0.1:27017/?authSource=admin&authMechanism=SCRAM-SHA-256: it holds
   * the password, so log it only through redactUri (@vidensbank/embedded-mongo/uri)
   */
  uri: string;
  port: number;
  /** the replica set name (hello's setName) */
  replicaSet: string;
  engine: Engine;
  /** end all connections, stop listening and close the engine (flushes and releases the data directory) */
  close(): Promise<void>;
}

export const DEFAULT_DBPATH = "./data/db";

/**
 * Start the embedded store. Rejects when the data directory is in use by another process or the port is taken.
 */
export async function startEmbeddedStore(opts: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
  const dbpath = opts.memory ? undefined : path.resolve(opts.dbpath ?? DEFAULT_DBPATH);
  const engine = await createEngine({
    dbpath,
    fsync: opts.fsync,
    ttlIntervalMs: opts.ttlIntervalMs,
    changeHistory: opts.changeStreamHistory,
  });
  const credentials: Credentials = {
    user: opts.credentials?.user || DEFAULT_STORE_USER,
    password: opts.credentials?.password || randomBytes(18).toString("base64url"),
  };
  let wire: Awaited<ReturnType<typeof startWireServer>>;
  try {
    wire = await startWireServer({
      engine,
      host: opts.host,
      port: opts.port,
      logger: opts.logger,
      replicaSet: opts.replicaSet,
      credentials: [credentials],
    });
  } catch (err) {
    await engine.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    uri: storeUri(wire.host, wire.port, credentials),
    port: wire.port,
    replicaSet: wire.state.replicaSet,
    engine,
    close() {
      closing ??= (async () => {
        await wire.close();
        await engine.close();
      })();
      return closing;
    },
  };
}
