/**
 * Two app processes (A and B) on one embedded store run in its own process, as `npm run start:cluster` runs
 * them: what happens through A is seen through B (answers streamed token by token, logouts, article edits,
 * rate limits, answers in flight, user deletions, password resets and changes, saved preferences, activity).
 */
import { decodeJwt } from "jose";
import { mongo } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AUTH_CACHE_TTL_MS } from "../auth/auth.cache";
import { EventCollector, gqlOk, Q, wsClient } from "../chat/chat.test-helpers";
import { WS_CLOSE_UNAUTHORIZED } from "../graphql/ws";
import { buildUser, gql, rest } from "../testing/client";
import { type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import { type Child, gqlUrl, startAppPair, startStoreProcess, wsUrl } from "../testing/processes";

const ADMIN = { email: "admin@minksekretariatet.dk", password: "cluster-admin-password" };
let store: Child;
let a: Child & { url: string };
let b: Child & { url: string };
let llm: FakeOpenAI;
let adminEmail: string;

async function login(app: { url: string }): Promise<string> {
  const res = await rest(app, "POST", "/api/auth/login", {
    body: { email: adminEmail, password: ADMIN.password },
  });
  if (res.status !== 200) throw new Error(`login ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

async function within<T>(ms: number, check: () => Promise<T | undefined>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return { value, ms: Date.now() - t0 };
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  llm = await startFakeOpenAI({
    reply: "Svaret kommer her i mange små stykker fra modellen [1].",
    tokenDelayMs: 5,
  });
  store = await startStoreProcess();
  [a, b] = await startAppPair(store.first, ADMIN.password, {
    OPENAI_BASE_URL: llm.baseURL,
    RATE_LIMITS: JSON.stringify({ loginPerAccount: { points: 3, duration: 60 } }),
  });
  const status = await rest(a, "POST", "/api/auth/login", {
    body: { email: ADMIN.email, password: ADMIN.password },
  });
  adminEmail = status.status === 200 ? ADMIN.email : "";
  if (!adminEmail) throw new Error(`admin login failed: ${JSON.stringify(status.body)}`);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await store?.stop();
  await llm?.close();
}, 30_000);

/** A graphql-ws socket on `app` signed in with `token` (acknowledged); `closed`: its close code and when. */
async function openSocket(app: { url: string }, token: string) {
  const socket = new WebSocket(`${app.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    socket.on("close", (code) => resolve({ code, at: Date.now() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.on("open", () =>
      socket.send(JSON.stringify({ type: "connection_init", payload: { authToken: token } })),
    );
    socket.on("message", (m) => JSON.parse(String(m)).type === "connection_ack" && resolve());
    socket.on("error", reject);
  });
  return { socket, closed };
}

describe("two app processes on one store", () => {
  it("streams an answer asked through A token by token to a subscriber on B", async () => {
    const token = await login(a);
    const { createSession } = await gqlOk(gqlUrl(a), Q.create, { title: "Klynge" }, token);
    const client = wsClient(wsUrl(b), token);
    const events = new EventCollector(client, createSession.sessionId);
    // tokens as far apart as a real model's: B gets A's events in 50 ms batches, and the DELTAs of one batch
    // reach a subscriber merged (they wait for its socket together), so 5 ms apart would arrive as ~3 frames
    llm.setBehaviour({ tokenDelayMs: 30 });
    try {
      await new Promise((r) => setTimeout(r, 300)); // the subscription is registered on B
      const sent = await gqlOk(
        gqlUrl(a),
        Q.send,
        { sessionId: createSession.sessionId, content: "Hvad er fristen?" },
        token,
      );
      const id = sent.sendMessage.assistantMessage.id;
      await events.untilEnded(id, 20_000);
      const mine = events.events.filter((e) => e.messageId === id);
      const deltas = mine.filter((e) => e.type === "DELTA");
      const done = mine.find((e) => e.type === "COMPLETED");
      expect(mine[0]?.type).toBe("CREATED");
      expect(deltas.length).toBeGreaterThan(5);
      expect(done?.message.content).toBeTruthy();
      expect(deltas.map((d) => d.delta).join("")).toBe(done?.message.content);
    } finally {
      llm.setBehaviour({ tokenDelayMs: 5 });
      events.close();
      await client.dispose();
    }
  }, 30_000);

  it("a long session's page opened on B shows what was sent and regenerated through A (B keeps its places)", async () => {
    const token = await login(a);
    const userId = new mongo.ObjectId((decodeJwt(token) as { sub: string }).sub);
    const sessionId = `cluster-long-${Date.now()}`;
    const direct = await mongo.MongoClient.connect(store.first);
    try {
      // 120 messages (more than chat.place-cache.ts keeps the places of), straight into the store
      const docs: Array<Record<string, unknown>> = [];
      const t0 = Date.now() - 3_600_000;
      for (let i = 0; i < 120; i++) {
        const question = i % 2 === 0;
        docs.push({
          _id: new mongo.ObjectId(),
          userId,
          sessionId,
          role: question ? "user" : "assistant",
          content: question ? `Spørgsmål ${i}` : `Svar ${i}`,
          timestamp: new Date(t0 + i * 1_000),
          parentId: docs[i - 1]?._id ?? null,
          ...(question ? {} : { status: "complete", replyTo: docs[i - 1]?._id }),
        });
      }
      await direct.db().collection("chat_messages").insertMany(docs);
      const now = new Date();
      await direct.db().collection("chat_sessions").insertOne({
        userId,
        sessionId,
        title: "Lang",
        titled: true,
        hasMessages: true,
        activeLeafId: docs[119]?._id,
        createdAt: now,
        lastUpdated: now,
      });
    } finally {
      await direct.close();
    }
    const PAGE = `query($s: ID!) { messages(sessionId: $s, limit: 4) { id role status siblingCount } }`;
    const pageOn = async (app: { url: string }) =>
      (await gqlOk(gqlUrl(app), PAGE, { s: sessionId }, token)).messages as Array<{
        id: string;
        role: string;
        status: string | null;
        siblingCount: number;
      }>;
    await pageOn(b);
    await pageOn(b); // B keeps the places now

    const sent = await gqlOk(gqlUrl(a), Q.send, { sessionId, content: "Hvad er fristen?" }, token);
    const answer = sent.sendMessage.assistantMessage.id as string;
    expect((await pageOn(b)).slice(-2).map((m) => m.id)).toEqual([sent.sendMessage.userMessage.id, answer]);
    await within(20_000, async () => ((await pageOn(a)).at(-1)?.status === "complete" ? true : undefined));

    // regenerated through A, and the first answer shown again: B's kept tree still holds that answer, so only
    // the count A made after storing the new one tells B that the answer has an alternative now
    await gqlOk(gqlUrl(a), Q.regenerate, { messageId: answer }, token);
    await gqlOk(gqlUrl(a), Q.switchBranch, { messageId: answer }, token);
    const shown = (await pageOn(b)).at(-1);
    expect(shown).toMatchObject({ id: answer, siblingCount: 2 });
  }, 60_000);

  it("a logout on A refuses the token on B and closes its websocket there within 1 s", async () => {
    const token = await login(a);
    expect((await rest(b, "GET", "/api/auth/status", { token })).body.isAuthenticated).toBe(true);
    const { closed } = await openSocket(b, token);
    const t0 = Date.now();
    expect((await rest(a, "POST", "/api/auth/logout", { token })).status).toBe(200);
    const refused = await within(1_000, async () =>
      (await rest(b, "GET", "/api/auth/status", { token })).body.isAuthenticated === false ? true : undefined,
    );
    expect(refused.ms).toBeLessThan(1_000);
    const close = await Promise.race([closed, new Promise<null>((r) => setTimeout(() => r(null), 1_500))]);
    expect(close?.code).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((close?.at ?? Number.POSITIVE_INFINITY) - t0).toBeLessThan(1_000);
  }, 15_000);

  it("a logout on A refuses on B within 1 s a token B has trusted from its cache for longer than 1 s", async () => {
    const token = await login(a);
    const signedIn = async () => (await rest(b, "GET", "/api/auth/status", { token })).body.isAuthenticated;
    expect(await signedIn()).toBe(true);
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS + 300)); // past the 1 s rule: trusted while followed
    expect(await signedIn()).toBe(true);
    expect((await rest(a, "POST", "/api/auth/logout", { token })).status).toBe(200);
    const refused = await within(1_000, async () => ((await signedIn()) === false ? true : undefined));
    expect(refused.ms).toBeLessThan(1_000);
  }, 15_000);

  it("a session ended or a user changed by another client (no app process) is seen by A and B within 1 s", async () => {
    const token = await login(a);
    const other = await login(a);
    const me = async (app: { url: string }, t: string) =>
      ((await gql(gqlUrl(app), "{ me { id role } }", {}, t)).data?.me ?? null) as { role: string } | null;
    for (const app of [a, b]) expect((await me(app, token))?.role).toBe("ADMIN");
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS + 300));
    for (const app of [a, b]) expect(await me(app, other)).not.toBeNull();
    const direct = await mongo.MongoClient.connect(store.first);
    try {
      // as the CLI or a script would: straight to the store, no event published by an app process
      const { sid } = decodeJwt(token) as { sid: string };
      expect((await direct.db().collection("sessions").deleteOne({ sid })).deletedCount).toBe(1);
      for (const app of [a, b]) {
        const gone = await within(1_000, async () => ((await me(app, token)) === null ? true : undefined));
        expect(gone.ms).toBeLessThan(1_000);
      }
      const { sub } = decodeJwt(other) as { sub: string };
      await direct
        .db()
        .collection("users")
        .updateOne({ _id: new mongo.ObjectId(sub) }, { $set: { name: "Omdøbt udefra" } });
      for (const app of [a, b]) {
        const seen = await within(1_000, async () =>
          (await gql(gqlUrl(app), "{ me { name } }", {}, other)).data?.me?.name === "Omdøbt udefra"
            ? true
            : undefined,
        );
        expect(seen.ms).toBeLessThan(1_000);
      }
    } finally {
      await direct.close();
    }
  }, 20_000);

  it("an article edited through A is found by search on B, and no longer under its old words", async () => {
    const token = await login(a);
    const search = async (app: { url: string }, q: string) =>
      (
        await gqlOk(
          gqlUrl(app),
          `query($q: String!) { searchKnowledge(query: $q) { total hits { article { id } } } }`,
          { q },
          token,
        )
      ).searchKnowledge as { total: number; hits: Array<{ article: { id: string } }> };
    const input = {
      title: "Klyngeartikel zebrafinke",
      content: "Om zebrafinker i sekretariatet.",
      category: "Test",
    };
    const created = await gqlOk(
      gqlUrl(a),
      `mutation($input: KnowledgeArticleInput!) { createKnowledgeArticle(input: $input) { id } }`,
      { input },
      token,
    );
    const id = created.createKnowledgeArticle.id as string;
    const has = (r: { hits: Array<{ article: { id: string } }> }) => r.hits.some((h) => h.article.id === id);
    const seen = await within(1_000, async () => (has(await search(b, "zebrafinke")) ? true : undefined));
    expect(seen.ms).toBeLessThan(1_000);
    await gqlOk(
      gqlUrl(a),
      `mutation($id: ID!, $input: KnowledgeArticleInput!) { updateKnowledgeArticle(id: $id, input: $input) { id } }`,
      {
        id,
        input: { ...input, title: "Klyngeartikel pingvinkoloni", content: "Om pingviner i sekretariatet." },
      },
      token,
    );
    const moved = await within(1_000, async () =>
      has(await search(b, "pingvinkoloni")) && !has(await search(b, "zebrafinke")) ? true : undefined,
    );
    expect(moved.ms).toBeLessThan(1_000);
    await gqlOk(gqlUrl(a), `mutation($id: ID!) { deleteKnowledgeArticle(id: $id) }`, { id }, token);
    await within(1_000, async () => (has(await search(b, "pingvinkoloni")) ? undefined : true));
  }, 15_000);

  it("a rate limit reached through A holds on B", async () => {
    const body = { email: "ingen@minksekretariatet.dk", password: "forkert-kodeord" };
    for (let i = 0; i < 3; i++) expect((await rest(a, "POST", "/api/auth/login", { body })).status).toBe(401);
    expect((await rest(b, "POST", "/api/auth/login", { body })).status).toBe(429);
  });

  it("answers in flight are counted across A and B", async () => {
    const token = await login(a);
    llm.setBehaviour({ firstTokenDelayMs: 3_000 });
    try {
      const sessions = await Promise.all(
        [1, 2, 3].map(
          async (n) => (await gqlOk(gqlUrl(a), Q.create, { title: `S${n}` }, token)).createSession.sessionId,
        ),
      );
      const send = (app: { url: string }, sessionId: string) =>
        gql(gqlUrl(app), Q.send, { sessionId, content: "Hvad er klagefristen?" }, token);
      const first = await Promise.all([send(a, sessions[0]), send(b, sessions[1])]);
      expect(first.map((r) => r.errors?.[0]?.extensions?.code ?? "ok")).toEqual(["ok", "ok"]);
      const third = await send(a, sessions[2]);
      expect(third.errors?.[0]?.extensions?.code).toBe("TOO_MANY_REQUESTS");
      const fourth = await send(b, sessions[2]);
      expect(fourth.errors?.[0]?.extensions?.code).toBe("TOO_MANY_REQUESTS");
    } finally {
      llm.setBehaviour({ firstTokenDelayMs: 0 });
    }
  }, 20_000);
  describe("users and admins", () => {
    let direct: mongo.MongoClient;
    beforeAll(async () => {
      direct = await mongo.MongoClient.connect(store.first);
    });
    afterAll(async () => {
      await direct?.close();
    });

    const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

    /** A user registered through A (verified straight in the store, as the CLI would), signed in on `on`. */
    async function newUser(on: { url: string }) {
      const input = buildUser();
      const reg = await rest(a, "POST", "/api/auth/register", { body: input });
      if (reg.status !== 201) throw new Error(`register ${reg.status} ${JSON.stringify(reg.body)}`);
      await direct
        .db()
        .collection("users")
        .updateOne({ email: input.email }, { $set: { verified: true } });
      const res = await rest(on, "POST", "/api/auth/login", {
        body: { email: input.email, password: input.password },
      });
      if (res.status !== 200) throw new Error(`login ${res.status} ${JSON.stringify(res.body)}`);
      return { input, id: res.body.user.id as string, token: res.body.token as string };
    }

    const signedInOn = async (app: { url: string }, token: string) =>
      (await rest(app, "GET", "/api/auth/status", { token })).body.isAuthenticated as boolean;

    const closedWithin = (closed: Promise<{ code: number; at: number }>, ms: number) =>
      Promise.race([closed, sleep(ms).then(() => null)]);

    /**
     * `user` signed in on B (a socket open there, the sign-in cached past the 1 s rule: B trusts it only while
     * it follows the store); `act` (given an admin's token on A) must refuse the token on B and close the
     * socket within 1 s.
     */
    async function endsSignInOnB(user: { token: string }, act: (admin: string) => Promise<void>) {
      const readAt = Date.now();
      expect(await signedInOn(b, user.token)).toBe(true);
      const { closed } = await openSocket(b, user.token);
      const [admin] = await Promise.all([login(a), sleep(readAt + AUTH_CACHE_TTL_MS + 100 - Date.now())]);
      expect(await signedInOn(b, user.token)).toBe(true);
      const t0 = Date.now();
      await act(admin);
      const refused = await within(1_000, async () =>
        (await signedInOn(b, user.token)) === false ? true : undefined,
      );
      expect(refused.ms).toBeLessThan(1_000);
      const close = await closedWithin(closed, 1_500);
      expect(close?.code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect((close?.at ?? Number.POSITIVE_INFINITY) - t0).toBeLessThan(1_000);
    }

    it("an admin deleting a user through A refuses their token on B and closes their socket there within 1 s", async () => {
      const user = await newUser(b);
      await endsSignInOnB(user, async (admin) => {
        const res = await rest(a, "DELETE", `/api/admin/users/${user.id}`, { token: admin });
        expect(res.status).toBe(200);
      });
    }, 15_000);

    it("an admin resetting a user's password through A refuses their token on B and closes their socket there within 1 s", async () => {
      const user = await newUser(b);
      await endsSignInOnB(user, async (admin) => {
        const res = await rest(a, "POST", "/api/admin/reset-password", {
          token: admin,
          body: { userId: user.id, newPassword: "nulstillet-123" },
        });
        expect(res.status).toBe(200);
      });
    }, 15_000);

    it("a user's own password change through A closes their other sign-ins' sockets on B within 1 s, not the one that changed it", async () => {
      const user = await newUser(b);
      const other = await rest(b, "POST", "/api/auth/login", {
        body: { email: user.input.email, password: user.input.password },
      });
      expect(other.status).toBe(200);
      const [kept, ended] = await Promise.all([openSocket(b, user.token), openSocket(b, other.body.token)]);
      const t0 = Date.now();
      const res = await rest(a, "PUT", "/api/user/password", {
        token: user.token,
        body: { currentPassword: user.input.password, newPassword: "mit-nye-kodeord" },
      });
      expect(res.status).toBe(200);
      const close = await closedWithin(ended.closed, 1_500);
      expect(close?.code).toBe(WS_CLOSE_UNAUTHORIZED);
      expect((close?.at ?? Number.POSITIVE_INFINITY) - t0).toBeLessThan(1_000);
      expect(await signedInOn(b, other.body.token)).toBe(false);
      expect(await signedInOn(b, user.token)).toBe(true);
      expect(kept.socket.readyState).toBe(WebSocket.OPEN);
      kept.socket.close();
    }, 15_000);

    it("preferences saved through A reach the user's subscriber on B", async () => {
      const user = await newUser(b);
      const client = wsClient(wsUrl(b), user.token);
      const themes: string[] = [];
      const dispose = client.subscribe<{ preferencesChanged: { theme: string } }>(
        { query: "subscription { preferencesChanged { theme } }" },
        {
          next: (r) => r.data && themes.push(r.data.preferencesChanged.theme),
          error: () => undefined,
          complete: () => undefined,
        },
      );
      const save = (app: { url: string }, theme: string) =>
        gqlOk(
          gqlUrl(app),
          `mutation { updatePreferences(input: { theme: ${theme} }) { theme } }`,
          {},
          user.token,
        );
      try {
        // the subscription is live on B once a save through B itself reaches it
        for (let i = 0; i < 20 && !themes.includes("light"); i++) {
          await save(b, "light");
          await sleep(100);
        }
        expect(themes).toContain("light");
        const t0 = Date.now();
        await save(a, "dark");
        const seen = await within(1_000, async () => (themes.includes("dark") ? true : undefined));
        expect(Date.now() - t0).toBeLessThan(1_000);
        expect(seen.value).toBe(true);
      } finally {
        dispose();
        await client.dispose();
      }
    }, 15_000);

    it("an activity entry logged through A reaches an admin's activityLogged subscriber on B", async () => {
      const admin = await login(b);
      const client = wsClient(wsUrl(b), admin);
      const entries: Array<{ action: string; userEmail: string }> = [];
      const dispose = client.subscribe<{ activityLogged: { action: string; userEmail: string } }>(
        { query: "subscription { activityLogged { action userEmail } }" },
        {
          next: (r) => r.data && entries.push(r.data.activityLogged),
          error: () => undefined,
          complete: () => undefined,
        },
      );
      const register = async (app: { url: string }) => {
        const input = buildUser();
        expect((await rest(app, "POST", "/api/auth/register", { body: input })).status).toBe(201);
        return input.email;
      };
      const logged = (email: string) => entries.some((e) => e.action === "register" && e.userEmail === email);
      try {
        // the subscription is live on B once an entry logged by B itself reaches it
        let primed = false;
        for (let i = 0; i < 10 && !primed; i++) {
          const email = await register(b);
          await sleep(150);
          primed = logged(email);
        }
        expect(primed).toBe(true);
        const t0 = Date.now();
        const email = await register(a);
        await within(1_000, async () => (logged(email) ? true : undefined));
        expect(Date.now() - t0).toBeLessThan(1_000);
      } finally {
        dispose();
        await client.dispose();
      }
    }, 15_000);
  });
});
