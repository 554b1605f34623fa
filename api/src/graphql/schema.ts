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
    return schema;
  });
  return built;
}

/** SDL, sorted so the file diffs cleanly. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
