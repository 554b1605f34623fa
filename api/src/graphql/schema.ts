/** Build the executable schema from the type-graphql classes, and print it (sorted) for schema.graphql. */
import "reflect-metadata";
import { fileURLToPath } from "node:url";
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from "graphql";
import { buildSchema } from "type-graphql";
import { authChecker } from "./auth-checker";
import { noTopicPubSub } from "./pubsub";
import { resolvers } from "./resolvers";
import { countTextOutput } from "./response-size";

/** The committed schema file at the repository root. */
export const SCHEMA_FILE = fileURLToPath(new URL("../../../schema.graphql", import.meta.url));

let built: Promise<GraphQLSchema> | undefined;

/** The app's schema (built once per process), its text fields counted against each answer's size limit. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: [...resolvers] as [Function, ...Function[]],
    authChecker,
    pubSub: noTopicPubSub,
    validate: false,
  }).then((schema) => {
    countTextOutput(schema);
    passEventsThrough(schema);
    return schema;
  });
  return built;
}

/**
 * Subscription fields whose per-event resolver only hands the event on, and whose authorization is all in their
 * `subscribe` (chat.resolver.ts: the session's owner, checked once). Each event then skips type-graphql's
 * resolver machinery (resolver instance, argument conversion, middlewares): an answer streams one event per
 * token to every open chat. Not for fields with @Authorized: their check runs per event in that machinery.
 */
const PASS_THROUGH_SUBSCRIPTIONS = ["chatMessageEvents"];

function passEventsThrough(schema: GraphQLSchema): void {
  const fields = schema.getSubscriptionType()?.getFields() ?? {};
  for (const name of PASS_THROUGH_SUBSCRIPTIONS) {
    const field = fields[name];
    if (!field) throw new Error(`no subscription ${name} to pass events through`);
    field.resolve = (event: unknown) => event;
  }
}

/** SDL, sorted so the file diffs cleanly. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
