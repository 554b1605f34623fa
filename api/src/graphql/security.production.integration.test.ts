/**
 * In production (introspection off) no error suggests schema names, over HTTP and over graphql-ws: "Did you mean
 * …?" would give the schema away a guess at a time.
 */
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser, gql } from "../testing/client";

let app: TestApp;
let token: string;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ mail: "outbox", config: { nodeEnv: "production" } });
  token = (await createVerifiedUser(app)).token;
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await app?.close();
});

/** The errors of one operation over graphql-ws (validation errors, or the first result's errors). */
function overSocket(query: string, variables?: Record<string, unknown>): Promise<unknown[]> {
  const client = createClient({
    url: app.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authToken: token },
    retryAttempts: 0,
  });
  clients.push(client);
  return new Promise((resolve) => {
    client.subscribe(
      { query, variables },
      {
        next: (r) => resolve((r.errors as unknown[] | undefined) ?? []),
        error: (e) => resolve(Array.isArray(e) ? e : [e]),
        complete: () => resolve([]),
      },
    );
  });
}

// each names a field, argument, type, enum value or input field close to a real one
const MISTAKES: Array<[string, string, Record<string, unknown>?]> = [
  ["an unknown field", "{ mee { id } }"],
  ["an unknown nested field", "{ me { nmae } }"],
  ["an unknown argument", "{ activityLogs(limt: 5) { id } }"],
  ["an unknown type in a fragment", "{ me { ...F } } fragment F on Usr { id }"],
  ["an unknown enum value", "mutation { updatePreferences(input: { theme: drak }) { theme } }"],
  ["an unknown input field", "mutation { updatePreferences(input: { themee: dark }) { theme } }"],
  [
    "an unknown input field in variables",
    "mutation($i: PreferencesInput!) { updatePreferences(input: $i) { theme } }",
    { i: { themee: "dark" } },
  ],
  [
    "an unknown enum value in variables",
    "mutation($i: PreferencesInput!) { updatePreferences(input: $i) { theme } }",
    { i: { theme: "drak" } },
  ],
];

describe("errors in production", () => {
  it.each(MISTAKES)("should not suggest names for %s over HTTP", async (_name, query, variables) => {
    const res = await gql(app, query, variables, token);
    expect(res.status).toBe(400);
    expect(res.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(JSON.stringify(res.errors)).not.toMatch(/Did you mean/i);
  });

  it.each(MISTAKES)("should not suggest names for %s over graphql-ws", async (_name, query, variables) => {
    const errors = await overSocket(query, variables);
    expect(errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(errors)).not.toMatch(/Did you mean/i);
  });

  it("should still say what was wrong", async () => {
    const res = await gql(app, "{ mee { id } }", {}, token);
    expect(res.errors?.[0].message).toBe('Ugyldig forespørgsel: Cannot query field "mee" on type "Query".');
    const ok = await gql(app, "{ me { id } }", {}, token);
    expect(ok.errors).toBeUndefined();
  });
});
