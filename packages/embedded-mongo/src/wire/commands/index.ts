/** Command dispatch: find the handler for a command document and turn every outcome into a mongod-shaped reply. */
import type { Document } from "bson";
import { AUTH_FAILED_MESSAGE, requiresLogin, saslContinue, saslStart } from "../auth";
import type { CommandContext, CommandHandler } from "../context";
import { commandError, errorReply, notSupported } from "../errors";
import { TRANSACTIONS_MESSAGE } from "../retryable";
import { adminCommands } from "./admin";
import { crudCommands } from "./crud";
import { ddlCommands } from "./ddl";
import { replicaSetCommands, withClusterTime } from "./replset";

const transactionCommands: Record<string, CommandHandler> = {
  commitTransaction: () => {
    throw commandError(20, TRANSACTIONS_MESSAGE);
  },
  abortTransaction: () => {
    throw commandError(20, TRANSACTIONS_MESSAGE);
  },
};

/** mongod commands this store knowingly does not implement: a clear refusal instead of "no such command" */
const UNSUPPORTED = [
  "explain",
  "mapReduce",
  "validate",
  "compact",
  "collMod",
  "convertToCapped",
  "cloneCollectionAsCapped",
  "createUser",
  "updateUser",
  "dropUser",
  "usersInfo",
  "createRole",
  "rolesInfo",
  "currentOp",
  "killOp",
  "profile",
  "setParameter",
  "fsync",
  "shutdown",
  "createSearchIndexes",
  "listSearchIndexes",
  "setFeatureCompatibilityVersion",
];

const refusals: Record<string, CommandHandler> = {
  ...Object.fromEntries(
    UNSUPPORTED.map((name): [string, CommandHandler] => [
      name,
      () => {
        throw notSupported(`the '${name}' command`);
      },
    ]),
  ),
  // the legacy mechanisms (MONGODB-CR, X.509) are not offered: only SCRAM-SHA-256 through saslStart
  authenticate: (ctx) => {
    ctx.conn.auth.failures++;
    throw commandError(18, AUTH_FAILED_MESSAGE);
  },
};

export const commands: Record<string, CommandHandler> = {
  ...refusals,
  ...adminCommands,
  ...ddlCommands,
  ...crudCommands,
  ...replicaSetCommands,
  ...transactionCommands,
  saslStart,
  saslContinue,
  logout: (ctx) => {
    ctx.conn.auth.user = undefined;
    ctx.conn.auth.conversation = undefined;
    return { ok: 1 };
  },
  listCommands: () => ({
    commands: Object.fromEntries(Object.keys(commands).map((name) => [name, { help: "", adminOnly: false }])),
    ok: 1,
  }),
};

const INVALID_DB_CHARS = /[/\\. "$\0]/;

/**
 * Run one command document against the store. Never throws: failures come back as
 * `{ ok: 0, errmsg, code, codeName }` exactly as mongod shapes them. Every reply carries the operation time.
 */
export async function runCommand(ctx: CommandContext, cmd: Document): Promise<Document> {
  const name = Object.keys(cmd)[0] ?? "";
  let reply: Document;
  try {
    // before anything else, a retried write's remembered answer included
    const refusal = requiresLogin(ctx, name);
    if (refusal) throw refusal;
    reply = await ctx.server.retryableWrites.run(name, cmd, () => execute(ctx, name, cmd));
  } catch (err) {
    reply = errorReply(err);
  }
  return withClusterTime(ctx, reply);
}

async function execute(ctx: CommandContext, name: string, cmd: Document): Promise<Document> {
  try {
    const handler = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!handler) {
      ctx.server.logger.warn(`embedded store: no such command '${name}'`);
      throw commandError(59, `no such command: '${name}'`);
    }
    if (ctx.db === "" || INVALID_DB_CHARS.test(ctx.db))
      throw commandError(73, `Invalid database name: '${ctx.db}'`);
    const w = (cmd.writeConcern as Document | undefined)?.w;
    if (typeof w === "number" && w > 1)
      throw commandError(2, "cannot use 'w' > 1 when a host is not replicated");
    return await handler(ctx, cmd);
  } catch (err) {
    const reply = errorReply(err);
    if (reply.code === 1) ctx.server.logger.error(`embedded store: command '${name}' failed`, err);
    return reply;
  }
}
