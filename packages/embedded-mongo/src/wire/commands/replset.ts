/**
 * The store presents itself as the primary of a single-member replica set (what change streams require of a
 * server): hello's set fields, the operation time every reply carries, and the replSet* status commands.
 *
 * hello carries no topologyVersion, so drivers poll it (every heartbeatFrequencyMS) instead of streaming it
 * (awaitable hello, exhaust replies), which this server does not implement.
 */
import { Binary, type Document, Long, ObjectId } from "bson";
import { toTimestamp } from "../../changestream/token";
import type { CommandContext, CommandHandler } from "../context";
import { commandError } from "../errors";

/** the default replica set name (a URI may say ?replicaSet=rs0) */
export const DEFAULT_REPLICA_SET = "rs0";

/** MongoDB's election id of term 1: drivers compare it to tell a stale primary; there is only one term here */
const ELECTION_ID = new ObjectId("7fffffff0000000000000001");
const TERM = Long.fromNumber(1);
const NO_SIGNATURE = { hash: new Binary(Buffer.alloc(20)), keyId: Long.fromNumber(0) };

function opTime(ctx: CommandContext): Document {
  return { ts: toTimestamp(ctx.server.engine.changes.lastCommitted), t: TERM };
}

/** hello's replica set fields; `me` is the address this client reached the store at */
export function replicaSetHello(ctx: CommandContext): Document {
  const me = ctx.conn.advertised;
  const last = opTime(ctx);
  const lastWriteDate = new Date(Number(last.ts.high) * 1000);
  return {
    hosts: [me],
    setName: ctx.server.replicaSet,
    setVersion: 1,
    secondary: false,
    primary: me,
    me,
    electionId: ELECTION_ID,
    lastWrite: { opTime: last, lastWriteDate, majorityOpTime: last, majorityWriteDate: lastWriteDate },
  };
}

/** operationTime and $clusterTime, as a replica set member adds them to every reply */
export function withClusterTime(ctx: CommandContext, reply: Document): Document {
  const ts = toTimestamp(ctx.server.engine.changes.lastCommitted);
  reply.$clusterTime = { clusterTime: ts, signature: NO_SIGNATURE };
  reply.operationTime = ts;
  return reply;
}

function replSetGetStatus(ctx: CommandContext): Document {
  const optime = opTime(ctx);
  const date = new Date();
  return {
    set: ctx.server.replicaSet,
    date,
    myState: 1,
    term: TERM,
    heartbeatIntervalMillis: Long.fromNumber(2000),
    majorityVoteCount: 1,
    writeMajorityCount: 1,
    votingMembersCount: 1,
    writableVotingMembersCount: 1,
    optimes: { lastCommittedOpTime: optime, appliedOpTime: optime, durableOpTime: optime },
    members: [
      {
        _id: 0,
        name: ctx.conn.advertised,
        health: 1,
        state: 1,
        stateStr: "PRIMARY",
        uptime: Math.floor((Date.now() - ctx.server.startedAt) / 1000),
        optime,
        optimeDate: date,
        syncSourceHost: "",
        syncSourceId: -1,
        infoMessage: "",
        electionTime: toTimestamp(BigInt(Math.floor(ctx.server.startedAt / 1000)) << 32n),
        electionDate: new Date(ctx.server.startedAt),
        configVersion: 1,
        configTerm: 1,
        self: true,
      },
    ],
    ok: 1,
  };
}

function replSetGetConfig(ctx: CommandContext): Document {
  return {
    config: {
      _id: ctx.server.replicaSet,
      version: 1,
      term: 1,
      members: [
        { _id: 0, host: ctx.conn.advertised, arbiterOnly: false, hidden: false, priority: 1, votes: 1 },
      ],
      protocolVersion: Long.fromNumber(1),
      settings: { chainingAllowed: true, electionTimeoutMillis: 10_000, heartbeatIntervalMillis: 2000 },
    },
    ok: 1,
  };
}

function adminOnly(name: string, handler: CommandHandler): CommandHandler {
  return (ctx, cmd) => {
    if (ctx.db !== "admin") throw commandError(13, `${name} may only be run against the admin database.`);
    return handler(ctx, cmd);
  };
}

export const replicaSetCommands: Record<string, CommandHandler> = {
  replSetGetStatus: adminOnly("replSetGetStatus", replSetGetStatus),
  replSetGetConfig: adminOnly("replSetGetConfig", replSetGetConfig),
  replSetInitiate: () => {
    throw commandError(23, "already initialized");
  },
};
