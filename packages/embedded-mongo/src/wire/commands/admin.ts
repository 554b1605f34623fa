/** Handshake, server information and session commands (none of them touch stored data). */
import os from "node:os";
import type { Document } from "bson";
import { AUTH_DB, SCRAM_MECHANISM, speculativeAuthenticate } from "../auth";
import {
  FEATURE_COMPATIBILITY_VERSION,
  LOGICAL_SESSION_TIMEOUT_MINUTES,
  MAX_BSON_OBJECT_SIZE,
  MAX_MESSAGE_SIZE_BYTES,
  MAX_WIRE_VERSION,
  MAX_WRITE_BATCH_SIZE,
  MIN_WIRE_VERSION,
  SERVER_VERSION,
  SERVER_VERSION_ARRAY,
} from "../constants";
import type { CommandContext, CommandHandler } from "../context";
import { commandError } from "../errors";
import { replicaSetHello } from "./replset";

/**
 * hello / isMaster: the writable primary of a single-member replica set (replset.ts). No topologyVersion, so
 * drivers poll instead of streaming (awaitable hello), and no `compression` field, so they never send
 * OP_COMPRESSED.
 */
function hello(legacy: boolean): CommandHandler {
  return (ctx, cmd) => {
    const reply: Document = {};
    if (cmd.helloOk === true) reply.helloOk = true;
    if (legacy) reply.ismaster = true;
    else reply.isWritablePrimary = true;
    Object.assign(reply, replicaSetHello(ctx), {
      maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
      maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
      maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: LOGICAL_SESSION_TIMEOUT_MINUTES,
      connectionId: ctx.conn.id,
      minWireVersion: MIN_WIRE_VERSION,
      maxWireVersion: MAX_WIRE_VERSION,
      readOnly: false,
      ok: 1,
    });
    // offered for every user name asked about, so the answer does not tell which users exist
    if (Array.isArray(cmd.saslSupportedMechs) || typeof cmd.saslSupportedMechs === "string") {
      reply.saslSupportedMechs = [SCRAM_MECHANISM];
    }
    const speculative = speculativeAuthenticate(ctx, cmd.speculativeAuthenticate);
    if (speculative) reply.speculativeAuthenticate = speculative;
    return reply;
  };
}

function buildInfo(): Document {
  return {
    version: SERVER_VERSION,
    gitVersion: "vidensbank-embedded",
    modules: [],
    allocator: "system",
    javascriptEngine: "none",
    sysInfo: "deprecated",
    versionArray: SERVER_VERSION_ARRAY,
    openssl: { running: "disabled", compiled: "disabled" },
    buildEnvironment: { target_os: process.platform, target_arch: process.arch },
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ["embedded"],
    ok: 1,
  };
}

const PARAMETERS: Record<string, () => unknown> = {
  featureCompatibilityVersion: () => ({ version: FEATURE_COMPATIBILITY_VERSION }),
  authenticationMechanisms: () => [],
  logLevel: () => 0,
  cursorTimeoutMillis: () => 600_000,
  transactionLifetimeLimitSeconds: () => 60,
  maxBSONDepth: () => 100,
  internalQueryMaxBlockingSortMemoryUsageBytes: () => 104_857_600,
  notablescan: () => false,
  quiet: () => false,
  textSearchEnabled: () => false,
  ttlMonitorEnabled: () => true,
  ttlMonitorSleepSecs: () => 60,
};

function getParameter(_ctx: CommandContext, cmd: Document): Document {
  const all =
    cmd.getParameter === "*" || (typeof cmd.getParameter === "object" && cmd.getParameter?.allParameters);
  const reply: Document = {};
  for (const [name, value] of Object.entries(PARAMETERS)) {
    if (all || Object.hasOwn(cmd, name)) reply[name] = value();
  }
  if (Object.keys(reply).length === 0) throw commandError(72, "no option found to get");
  return { ...reply, ok: 1 };
}

function hostInfo(): Document {
  return {
    system: {
      currentTime: new Date(),
      hostname: os.hostname(),
      cpuAddrSize: 64,
      memSizeMB: Math.round(os.totalmem() / 1024 / 1024),
      memLimitMB: Math.round(os.totalmem() / 1024 / 1024),
      numCores: os.cpus().length,
      cpuArch: os.arch(),
      numaEnabled: false,
    },
    os: { type: os.type(), name: os.type(), version: os.release() },
    extra: {},
    ok: 1,
  };
}

function serverStatus(ctx: CommandContext): Document {
  const uptimeMillis = Date.now() - ctx.server.startedAt;
  return {
    host: `${os.hostname()}:${ctx.server.port}`,
    version: SERVER_VERSION,
    process: "mongod",
    pid: process.pid,
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis,
    uptimeEstimate: Math.floor(uptimeMillis / 1000),
    localTime: new Date(),
    connections: {
      current: ctx.server.connections.current,
      available: 1_000_000,
      totalCreated: ctx.server.connections.totalCreated,
    },
    metrics: { cursor: { open: { total: ctx.server.cursors.size } } },
    ok: 1,
  };
}

function listDatabases(ctx: CommandContext, cmd: Document): Document {
  if (ctx.db !== "admin") throw commandError(13, "listDatabases may only be run against the admin database.");
  const dbs = ctx.server.engine.listDatabases();
  if (cmd.nameOnly === true) return { databases: dbs.map((d) => ({ name: d.name })), ok: 1 };
  const totalSize = dbs.reduce((n, d) => n + d.sizeOnDisk, 0);
  return { databases: dbs, totalSize, totalSizeMb: Math.floor(totalSize / 1024 / 1024), ok: 1 };
}

function dbStats(ctx: CommandContext, cmd: Document): Document {
  const scale = Number(cmd.scale ?? 1) || 1;
  const s = ctx.server.engine.dbStats(ctx.db);
  return {
    ...s,
    dataSize: s.dataSize / scale,
    storageSize: s.storageSize / scale,
    indexSize: s.indexSize / scale,
    totalSize: (s.storageSize + s.indexSize) / scale,
    scaleFactor: scale,
    ok: 1,
  };
}

const ok = (): Document => ({ ok: 1 });

export const adminCommands: Record<string, CommandHandler> = {
  hello: hello(false),
  isMaster: hello(true),
  ismaster: hello(true),
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  hostInfo,
  whatsmyuri: (ctx) => ({ you: ctx.conn.remote, ok: 1 }),
  serverStatus,
  listDatabases,
  dbStats,
  connectionStatus: (ctx) => {
    const user = ctx.conn.auth.user;
    return {
      authInfo: {
        authenticatedUsers: user ? [{ user, db: AUTH_DB }] : [],
        authenticatedUserRoles: user ? [{ role: "root", db: AUTH_DB }] : [],
      },
      ok: 1,
    };
  },
  getCmdLineOpts: () => ({ argv: process.argv.slice(1), parsed: {}, ok: 1 }),
  listCommands: () => ({ commands: {}, ok: 1 }),
  endSessions: ok,
  refreshSessions: ok,
  killSessions: ok,
  killAllSessions: ok,
  getFreeMonitoringStatus: () => ({ state: "disabled", ok: 1 }),
  getLog: (_ctx, cmd) =>
    cmd.getLog === "*" ? { names: ["global"], ok: 1 } : { totalLinesWritten: 0, log: [], ok: 1 },
};
