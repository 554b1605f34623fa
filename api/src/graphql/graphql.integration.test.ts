import { type Client, createClient } from "graphql-ws";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../testing/app";
import { buildUser, createVerifiedUser, gql, loginAdmin } from "../testing/client";
import { WS_CLOSE_UNAUTHORIZED } from "./ws";

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ config: { wsRecheckMs: 300 } });
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await app?.close();
});

function wsClient(authToken?: string, onClosed?: (code: number) => void): Client {
  return wsConnect(authToken, onClosed).client;
}

/** A client and a promise that settles when the server acknowledged the connection (its onConnect ran). */
function wsConnect(
  authToken?: string,
  onClosed?: (code: number) => void,
): { client: Client; connected: Promise<void>; closed: Promise<number> } {
  let ack: () => void = () => undefined;
  let closedWith: (code: number) => void = () => undefined;
  const connected = new Promise<void>((resolve) => {
    ack = resolve;
  });
  const closed = new Promise<number>((resolve) => {
    closedWith = resolve;
  });
  const client = createClient({
    url: app.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: authToken ? { authToken } : undefined,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
    on: {
      connected: () => ack(),
      closed: (e) => {
        const code = (e as { code: number }).code;
        onClosed?.(code);
        closedWith(code);
      },
    },
  });
  clients.push(client);
  return { client, connected, closed };
}

/**
 * A subscription is registered on the server some time after it is sent. Repeat the action that publishes
 * until the first event arrives (no fixed sleeps).
 */
async function untilReceived<T>(
  received: Promise<T>,
  trigger: () => Promise<unknown>,
  timeoutMs = 15_000,
): Promise<T> {
  let done = false;
  void received.finally(() => {
    done = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (!done && Date.now() < deadline) {
    await trigger();
    await Promise.race([received, new Promise((r) => setTimeout(r, 250))]);
  }
  return received;
}

/** Subscribe and collect results until `count` arrived. */
function collect<T>(
  client: Client,
  query: string,
  count: number,
): Promise<Array<{ data?: T; errors?: unknown[] }>> {
  return new Promise((resolve, reject) => {
    const results: Array<{ data?: T; errors?: unknown[] }> = [];
    const dispose = client.subscribe<T>(
      { query },
      {
        next: (r) => {
          results.push(r as { data?: T; errors?: unknown[] });
          if (results.length >= count) {
            dispose();
            resolve(results);
          }
        },
        error: (e) => (Array.isArray(e) ? resolve([{ errors: e }]) : reject(e)),
        complete: () => resolve(results),
      },
    );
  });
}

const LOGIN = `mutation Login($input: LoginInput!) { login(input: $input) { token message user { id email role isAdmin firstName lastName } } }`;

describe("GraphQL accounts", () => {
  it("should register, verify by the mailed link and log in through mutations", async () => {
    const input = buildUser({ name: "Karen Blixen" });
    const reg = await gql(
      app,
      `mutation R($input: RegisterInput!) { register(input: $input) { verificationRequired message } }`,
      { input },
    );
    expect(reg.data?.register).toEqual({ verificationRequired: true, message: expect.any(String) });

    const notYet = await gql(app, LOGIN, { input: { email: input.email, password: input.password } });
    expect(notYet.errors?.[0].extensions?.code).toBe("EMAIL_NOT_VERIFIED");
    expect(notYet.errors?.[0].message).toContain("ikke bekræftet");

    const mail = await app.mail.waitFor(input.email);
    const token = new URL(mail.links[0]).searchParams.get("token");
    const ver = await gql(app, `mutation V($t: String!) { verifyEmail(token: $t) { verified message } }`, {
      t: token,
    });
    expect(ver.data?.verifyEmail.verified).toBe(true);

    const login = await gql(app, LOGIN, { input: { email: input.email, password: input.password } });
    expect(login.data?.login.user).toMatchObject({
      role: "USER",
      isAdmin: false,
      firstName: "Karen",
      lastName: "Blixen",
    });
    expect(login.headers.get("set-cookie")).toContain("auth_token=");
    const me = await gql(app, "{ me { email } }", {}, login.data.login.token);
    expect(me.data?.me.email).toBe(input.email);
    const anon = await gql(app, "{ me { email } }");
    expect(anon.data?.me).toBeNull();
    expect(anon.errors).toBeUndefined();
  });

  it("should give field errors with Danish messages and codes", async () => {
    const res = await gql(app, `mutation R($input: RegisterInput!) { register(input: $input) { message } }`, {
      input: buildUser({ email: "x@andet.dk", username: "ab" }),
    });
    const err = res.errors?.[0];
    expect(err?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(err?.extensions?.fields).toEqual([
      { field: "email", message: "Kun @minksekretariatet.dk email adresser er tilladt" },
      { field: "username", message: "Brugernavn skal være mindst 3 tegn" },
    ]);
    const wrongType = await gql(app, `mutation { login(input: { email: 1, password: "x" }) { token } }`);
    expect(wrongType.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(wrongType.errors?.[0].message).toMatch(/^Ugyldig/);
  });

  it("should refuse signed-out and non-admin callers with UNAUTHENTICATED and FORBIDDEN", async () => {
    const { token } = await createVerifiedUser(app);
    const anon = await gql(app, "{ myPreferences { language } }");
    expect(anon.errors?.[0]).toMatchObject({
      message: "Du skal være logget ind",
      extensions: { code: "UNAUTHENTICATED" },
    });
    const user = await gql(app, "{ adminUsers { id } }", {}, token);
    expect(user.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    expect(user.data?.adminUsers).toBeUndefined();
    const prefs = await gql(app, "{ myPreferences { language theme notifications } }", {}, token);
    expect(prefs.data?.myPreferences).toEqual({ language: "da", theme: "light", notifications: true });
  });

  it("should let the admin list, search, reset and delete users but never delete the built-in admin", async () => {
    const adminToken = await loginAdmin(app);
    const target = await createVerifiedUser(app, { name: "Søren Kierkegaard" });
    const list = await gql(
      app,
      `query { adminUsers(search: "KIERKEGAARD") { id name isActive isProtected chatSessionsCount bookmarksCount role } }`,
      {},
      adminToken,
    );
    expect(list.data?.adminUsers).toEqual([
      {
        id: target.user.id,
        name: "Søren Kierkegaard",
        isActive: true,
        isProtected: false,
        chatSessionsCount: 0,
        bookmarksCount: 0,
        role: "USER",
      },
    ]);
    const all = await gql(app, "{ adminUsers { id email isProtected } }", {}, adminToken);
    const admin = all.data.adminUsers.find((u: { email: string }) => u.email === app.admin.email);
    expect(admin.isProtected).toBe(true);

    const delAdmin = await gql(
      app,
      `mutation D($id: ID!) { adminDeleteUser(id: $id) }`,
      { id: admin.id },
      adminToken,
    );
    expect(delAdmin.errors?.[0]).toMatchObject({
      message: "Admin-brugeren kan ikke slettes",
      extensions: { code: "FORBIDDEN" },
    });

    const reset = await gql(
      app,
      `mutation { adminResetPassword(userId: "${target.user.id}", newPassword: "admin-sat-1") }`,
      {},
      adminToken,
    );
    expect(reset.data?.adminResetPassword).toBe(true);
    expect((await gql(app, "{ me { id } }", {}, target.token)).data?.me).toBeNull();

    const del = await gql(
      app,
      `mutation D($id: ID!) { adminDeleteUser(id: $id) }`,
      { id: target.user.id },
      adminToken,
    );
    expect(del.data?.adminDeleteUser).toBe(true);
    const missing = await gql(
      app,
      `mutation D($id: ID!) { adminDeleteUser(id: $id) }`,
      { id: target.user.id },
      adminToken,
    );
    expect(missing.errors?.[0].extensions?.code).toBe("NOT_FOUND");

    const logs = await gql(
      app,
      `{ activityLogs(action: "admin_delete_user", sinceHours: 1) { action description userEmail metadata } }`,
      {},
      adminToken,
    );
    expect(logs.data?.activityLogs[0]).toMatchObject({
      action: "admin_delete_user",
      userEmail: app.admin.email,
    });
    expect(logs.data?.activityLogs[0].metadata.deletedEmail).toBe(target.input.email);
  });

  it("should refuse an operation above the complexity limit", async () => {
    const aliases = Array.from({ length: 600 }, (_, i) => `a${i}: me { id }`).join(" ");
    const res = await gql(app, `{ ${aliases} }`);
    expect(res.errors?.[0]).toMatchObject({
      message: "Forespørgslen er for kompleks (højst 1000)",
      extensions: { code: "BAD_USER_INPUT" },
    });
    const fine = await gql(
      app,
      `{ ${aliases.split(" me { id } ").slice(0, 50).join(" me { id } ")} me { id } }`,
    );
    expect(fine.errors).toBeUndefined();
  });

  it("should answer malformed GraphQL with BAD_USER_INPUT and a Danish message", async () => {
    const parse = await gql(app, "{ me { ");
    expect(parse.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(parse.errors?.[0].message).toMatch(/^Ugyldig GraphQL-forespørgsel/);
    const unknownField = await gql(app, "{ me { password } }");
    expect(unknownField.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("graphql-ws", () => {
  it("should deliver activity entries live to a subscribed admin", async () => {
    const adminToken = await loginAdmin(app);
    const client = wsClient(adminToken);
    const received = collect<{
      activityLogged: { action: string; userEmail: string; messageKey: string; messageParams: object };
    }>(
      client,
      "subscription { activityLogged { action userEmail description messageKey messageParams } }",
      1,
    );
    const emails: string[] = [];
    const [first] = await untilReceived(received, async () => {
      const input = buildUser();
      emails.push(input.email);
      await gql(app, `mutation R($input: RegisterInput!) { register(input: $input) { message } }`, { input });
    });
    expect(first.data?.activityLogged.action).toBe("register");
    expect(emails).toContain(first.data?.activityLogged.userEmail);
    // the live entry carries its text by key, like the listed ones
    expect(first.data?.activityLogged.messageKey).toBe("log.register");
    expect(Object.keys(first.data?.activityLogged.messageParams ?? {})).toEqual(["name"]);
  });

  it("should refuse admin subscriptions for a normal user and signed-out sockets", async () => {
    const { token } = await createVerifiedUser(app);
    const asUser = await collect(wsClient(token), "subscription { activityLogged { action } }", 1);
    expect(JSON.stringify(asUser[0].errors)).toContain("FORBIDDEN");
    const anon = await collect(wsClient(), "subscription { preferencesChanged { theme } }", 1);
    expect(JSON.stringify(anon[0].errors)).toContain("UNAUTHENTICATED");
  });

  it("should refuse an operation above the complexity limit over the socket too", async () => {
    const { token } = await createVerifiedUser(app);
    const aliases = Array.from({ length: 600 }, (_, i) => `a${i}: me { id }`).join(" ");
    const [res] = await collect(wsClient(token), `query { ${aliases} }`, 1);
    expect(JSON.stringify(res.errors)).toContain("Forespørgslen er for kompleks (højst 1000)");
    const [fine] = await collect<{ me: { id: string } }>(wsClient(token), "query { me { id } }", 1);
    expect(fine.data?.me.id).toBeTruthy();
  });

  it("should send a user's own preference changes and nobody else's", async () => {
    const a = await createVerifiedUser(app);
    const b = await createVerifiedUser(app);
    const received = collect<{ preferencesChanged: { theme: string } }>(
      wsClient(a.token),
      "subscription { preferencesChanged { theme language } }",
      1,
    );
    const [first] = await untilReceived(received, async () => {
      await gql(app, `mutation { updatePreferences(input: { theme: light }) { theme } }`, {}, b.token);
      await gql(app, `mutation { updatePreferences(input: { theme: dark }) { theme } }`, {}, a.token);
    });
    expect(first.data?.preferencesChanged.theme).toBe("dark");
  });

  it("should close the open subscriptions of a user at once when the admin deletes them", async () => {
    const { token, user } = await createVerifiedUser(app);
    const { client, connected, closed } = wsConnect(token);
    collect(client, "subscription { preferencesChanged { theme } }", 1).catch(() => undefined);
    await connected;
    const adminToken = await loginAdmin(app);
    const del = await gql(
      app,
      `mutation D($id: ID!) { adminDeleteUser(id: $id) }`,
      { id: user.id },
      adminToken,
    );
    expect(del.data?.adminDeleteUser).toBe(true);
    expect(await closed).toBe(WS_CLOSE_UNAUTHORIZED);
    // and the token no longer opens a socket
    expect(await wsConnect(token).closed).toBe(4403);
  });

  it("should close a socket when another process (the CLI) deletes the user", async () => {
    const { token, user } = await createVerifiedUser(app);
    const { connected, closed } = wsConnect(token);
    await connected;
    // straight in the database, as another process would: no in-process event is emitted
    await mongoose.connection.collection("users").deleteOne({ _id: new mongoose.Types.ObjectId(user.id) });
    expect(await closed).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it("should close a socket when its session is logged out, and keep the user's other sockets", async () => {
    const { input, token } = await createVerifiedUser(app);
    const other = (await gql(app, LOGIN, { input: { email: input.email, password: input.password } })).data
      .login.token;
    const first = wsConnect(token);
    const second = wsConnect(other);
    let secondClosed = false;
    void second.closed.then(() => {
      secondClosed = true;
    });
    await Promise.all([first.connected, second.connected]);
    await gql(app, "mutation { logout }", {}, token);
    expect(await first.closed).toBe(WS_CLOSE_UNAUTHORIZED);
    await new Promise((r) => setTimeout(r, 700)); // over two re-check sweeps
    expect(secondClosed).toBe(false);
  });
});
