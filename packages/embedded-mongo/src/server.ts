/** The TCP server: accepts connections and hands each to a wire-protocol Connection over one engine. */
import net from "node:net";
import type { Engine } from "./engine/types";
import { AuthUsers, type Credentials } from "./wire/auth";
import { DEFAULT_REPLICA_SET } from "./wire/commands/replset";
import { Connection } from "./wire/connection";
import { type ServerState, type StoreLogger, silentLogger } from "./wire/context";
import { CursorManager } from "./wire/cursors";
import { RetryableWrites } from "./wire/retryable";

/** at close, how long after the idle connections the busy ones are closed (see close()) */
export const CLOSE_BUSY_AFTER_MS = 100;

export interface WireServerOptions {
  engine: Engine;
  host?: string;
  /** 0 = an ephemeral port */
  port?: number;
  logger?: StoreLogger;
  /** the replica set name hello reports (default rs0) */
  replicaSet?: string;
  /** the users clients must log in as (SCRAM-SHA-256, authSource admin) */
  credentials: Credentials[];
}

export interface WireServer {
  host: string;
  port: number;
  state: ServerState;
  /** stop accepting, end every connection and drop all cursors (the engine stays open) */
  close(): Promise<void>;
}

/** Listen for MongoDB wire-protocol clients on host:port. */
export async function startWireServer(options: WireServerOptions): Promise<WireServer> {
  const host = options.host ?? "127.0.0.1";
  const state: ServerState = {
    engine: options.engine,
    cursors: new CursorManager(),
    logger: options.logger ?? silentLogger,
    startedAt: Date.now(),
    host,
    port: 0,
    connections: { current: 0, totalCreated: 0 },
    replicaSet: options.replicaSet ?? DEFAULT_REPLICA_SET,
    retryableWrites: new RetryableWrites(),
    auth: new AuthUsers(options.credentials),
  };
  const connections = new Set<Connection>();
  const server = net.createServer((socket) => {
    state.connections.totalCreated++;
    state.connections.current++;
    const conn = new Connection(socket, state, state.connections.totalCreated);
    connections.add(conn);
    socket.on("close", () => {
      state.connections.current--;
      connections.delete(conn);
    });
  });
  server.on("error", (err) => state.logger.error("embedded store: server error", err));

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once("error", onError);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const address = server.address();
  state.port = typeof address === "object" && address ? address.port : (options.port ?? 0);

  let closing: Promise<void> | undefined;
  return {
    host,
    port: state.port,
    state,
    close() {
      // Idle connections first, the busy ones (awaitData getMores) a moment later. A driver that sees a busy
      // connection fail checks the server at once on its monitoring connection: when that one is closed in the
      // same instant, the Node driver can write its hello into the dead socket before it notices the close and
      // then waits forever (no timeout applies), so the client never finds the store again after a restart.
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const conn of connections) if (conn.idle) conn.close();
        const rest = () => {
          for (const conn of connections) conn.close();
          state.cursors.close();
        };
        if ([...connections].some((c) => !c.idle)) setTimeout(rest, CLOSE_BUSY_AFTER_MS);
        else rest();
      });
      return closing;
    },
  };
}
