/**
 * @vidensbank/embedded-mongo: the package's one public entry.
 *
 * The embedded MongoDB-compatible store: a storage engine behind a MongoDB wire-protocol server on 127.0.0.1.
 * The app, mongoose and the mongodb driver reach it through an ordinary mongodb:// URI.
 */
import path from "node:path";
import { createEngine } from "./engine";
import type { Engine } from "./engine/types";
import { startWireServer } from "./server";
import type { StoreLogger } from "./wire/context";

export type { Engine } from "./engine/types";
export { StoreError } from "./engine/types";
export type { StoreLogger } from "./wire/context";

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
}

export interface EmbeddedStore {
  /** e.g. mongodb://127.0.0.1:27017/ */
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
  let wire: Awaited<ReturnType<typeof startWireServer>>;
  try {
    wire = await startWireServer({
      engine,
      host: opts.host,
      port: opts.port,
      logger: opts.logger,
      replicaSet: opts.replicaSet,
    });
  } catch (err) {
    await engine.close();
    throw err;
  }
  const host = wire.host.includes(":") ? `[${wire.host}]` : wire.host;
  let closing: Promise<void> | undefined;
  return {
    uri: `mongodb://${host}:${wire.port}/`,
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
