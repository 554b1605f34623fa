/**
 * The GraphQL authorization matrix, derived from the schema's own `@Authorized` metadata (type-graphql's metadata
 * storage): every admin query and mutation is refused over real GraphQL HTTP with UNAUTHENTICATED without a user
 * and FORBIDDEN for staff, every admin subscription likewise over graphql-ws. A new admin operation is covered
 * without editing this file; the test fails when the metadata and the schema disagree, so no operation slips
 * past the check.
 */
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { type Client, createClient } from "graphql-ws";
import mongoose from "mongoose";
import { getMetadataStorage } from "type-graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql, loginAdmin } from "../testing/client";
import { resolvers } from "./resolvers";
import { buildAppSchema } from "./schema";

type Kind = "query" | "mutation" | "subscription";

interface Operation {
  kind: Kind;
  /** the field name in the schema */
  name: string;
  /** `@Authorized(...)` roles; null when the operation has no `@Authorized` (public) */
  roles: string[] | null;
}

/** Every root operation of the schema's resolver classes, with its roles, read from type-graphql's metadata. */
function operationsFromMetadata(): Operation[] {
  const storage = getMetadataStorage();
  const classes = new Set<Function>(resolvers);
  const rolesOf = (target: Function, methodName: string): string[] | null => {
    const field = storage.authorizedFields.find((a) => a.target === target && a.fieldName === methodName);
    if (field) return field.roles.map(String);
    const cls = storage.authorizedResolver.find((a) => a.target === target);
    return cls ? cls.roles.map(String) : null;
  };
  const byKind: Array<[Kind, Array<{ target: Function; methodName: string; schemaName: string }>]> = [
    ["query", storage.queries],
    ["mutation", storage.mutations],
    ["subscription", storage.subscriptions],
  ];
  return byKind.flatMap(([kind, list]) =>
    list
      .filter((m) => classes.has(m.target))
      .map((m) => ({ kind, name: m.schemaName, roles: rolesOf(m.target, m.methodName) })),
  );
}

const isAdminOnly = (op: Operation) => op.roles?.includes("ADMIN") ?? false;

function rootType(schema: GraphQLSchema, kind: Kind): GraphQLObjectType | null | undefined {
  if (kind === "query") return schema.getQueryType();
  if (kind === "mutation") return schema.getMutationType();
  return schema.getSubscriptionType();
}

const ANY_ID = "000000000000000000000000";

/** A literal of this input type that passes validation (authorization is checked before the arguments are read). */
function sampleLiteral(type: GraphQLInputType): string {
  if (isNonNullType(type)) return sampleLiteral(type.ofType);
  if (isListType(type)) return `[${sampleLiteral(type.ofType)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter(
      (f) => isNonNullType(f.type) && f.defaultValue === undefined,
    );
    return `{ ${required.map((f) => `${f.name}: ${sampleLiteral(f.type)}`).join(", ")} }`;
  }
  if (isScalarType(type)) {
    const samples: Record<string, string> = {
      ID: `"${ANY_ID}"`,
      String: '"x"',
      Int: "1",
      Float: "1",
      Boolean: "true",
    };
    const sample = samples[type.name];
    if (sample) return sample;
  }
  throw new Error(`add a sample literal for the input type ${String(type)} to this test`);
}

/** The smallest valid document that calls this root field: required arguments sampled, `__typename` selected. */
function documentFor(kind: Kind, field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const argText = args.length ? `(${args.map((a) => `${a.name}: ${sampleLiteral(a.type)}`).join(", ")})` : "";
  const selection = isCompositeType(getNamedType(field.type)) ? " { __typename }" : "";
  return `${kind} { ${field.name}${argText}${selection} }`;
}

let app: TestApp;
let schema: GraphQLSchema;
let staffToken: string;
let adminToken: string;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp();
  schema = await buildAppSchema();
  staffToken = (await createVerifiedUser(app)).token;
  adminToken = await loginAdmin(app);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await app?.close();
});

/** The first result of a subscription over graphql-ws (errors from the subscribe phase included). */
function firstResult(
  query: string,
  token?: string,
): Promise<{ errors?: Array<{ extensions?: { code?: string } }> }> {
  const client = createClient({
    url: app.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authToken: token } : undefined,
    retryAttempts: 0,
  });
  clients.push(client);
  return new Promise((resolve, reject) => {
    const dispose = client.subscribe(
      { query },
      {
        next: (r) => {
          dispose();
          resolve(r as { errors?: Array<{ extensions?: { code?: string } }> });
        },
        error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)),
        complete: () => resolve({}),
      },
    );
  });
}

describe("GraphQL authorization matrix (from @Authorized metadata)", () => {
  it("should read the same operations from the metadata as the schema has, the admin ones among them", () => {
    const operations = operationsFromMetadata();
    for (const kind of ["query", "mutation", "subscription"] as const) {
      const inSchema = Object.keys(rootType(schema, kind)?.getFields() ?? {}).sort();
      const inMetadata = operations
        .filter((op) => op.kind === kind)
        .map((op) => op.name)
        .sort();
      // an operation the metadata does not know would escape this matrix: fail instead
      expect(inMetadata, kind).toEqual(inSchema);
    }
    // the admin operations of today (a floor: reading the metadata must find them)
    const admin = operations.filter(isAdminOnly).map((op) => op.name);
    expect(admin).toEqual(
      expect.arrayContaining([
        "adminUsers",
        "adminDeleteUser",
        "adminResetPassword",
        "activityLogs",
        "activityLogged",
        "knowledgeGaps",
        "adminStats",
        "activityPage",
        "createKnowledgeArticle",
        "updateKnowledgeArticle",
        "deleteKnowledgeArticle",
        "notionDatabases",
        "notionConfig",
        "notionSync",
        "connectNotion",
        "disconnectNotion",
        "saveNotionConfig",
        "startNotionSync",
        "notionSyncProgress",
        "adminChatShares",
      ]),
    );
  });

  it("should mark every operation named admin* as admin-only", () => {
    const unguarded = operationsFromMetadata().filter((op) => /^admin/i.test(op.name) && !isAdminOnly(op));
    expect(unguarded).toEqual([]);
  });

  it("should refuse every admin query and mutation: anonymous UNAUTHENTICATED, staff FORBIDDEN", async () => {
    const users = await mongoose.connection.collection("users").countDocuments();
    const checked: string[] = [];
    for (const op of operationsFromMetadata().filter(isAdminOnly)) {
      if (op.kind === "subscription") continue;
      const field = rootType(schema, op.kind)?.getFields()[op.name];
      expect(field, op.name).toBeDefined();
      const doc = documentFor(op.kind, field as GraphQLField<unknown, unknown>);

      const anon = await gql(app, doc);
      expect(
        anon.errors?.map((e) => e.extensions?.code),
        `${doc} anonymous`,
      ).toEqual(["UNAUTHENTICATED"]);
      expect(anon.data?.[op.name] ?? null, `${doc} anonymous data`).toBeNull();

      const staff = await gql(app, doc, {}, staffToken);
      expect(
        staff.errors?.map((e) => e.extensions?.code),
        `${doc} staff`,
      ).toEqual(["FORBIDDEN"]);
      expect(staff.errors?.[0].message).toBe("Kun administratorer har adgang");
      expect(staff.data?.[op.name] ?? null, `${doc} staff data`).toBeNull();

      if (op.kind === "query") {
        // the same document gets past the guard for the admin (so it is a valid document, refused by role)
        const asAdmin = await gql(app, doc, {}, adminToken);
        const codes = asAdmin.errors?.map((e) => e.extensions?.code) ?? [];
        expect(codes, `${doc} admin`).not.toContain("FORBIDDEN");
        expect(codes, `${doc} admin`).not.toContain("UNAUTHENTICATED");
      }
      checked.push(op.name);
    }
    expect(checked.length).toBeGreaterThanOrEqual(8);
    // nothing was done: no account touched, no admin action logged
    expect(await mongoose.connection.collection("users").countDocuments()).toBe(users);
    expect(await mongoose.connection.collection("activity_logs").countDocuments({ action: /^admin_/ })).toBe(
      0,
    );
  });

  it("should refuse every admin subscription over graphql-ws: anonymous UNAUTHENTICATED, staff FORBIDDEN", async () => {
    const subscriptions = operationsFromMetadata().filter(
      (op) => isAdminOnly(op) && op.kind === "subscription",
    );
    expect(subscriptions.length).toBeGreaterThanOrEqual(1);
    for (const op of subscriptions) {
      const field = schema.getSubscriptionType()?.getFields()[op.name];
      const doc = documentFor("subscription", field as GraphQLField<unknown, unknown>);
      const anon = await firstResult(doc);
      expect(
        anon.errors?.map((e) => e.extensions?.code),
        `${doc} anonymous`,
      ).toEqual(["UNAUTHENTICATED"]);
      const staff = await firstResult(doc, staffToken);
      expect(
        staff.errors?.map((e) => e.extensions?.code),
        `${doc} staff`,
      ).toEqual(["FORBIDDEN"]);
    }
  });
});
