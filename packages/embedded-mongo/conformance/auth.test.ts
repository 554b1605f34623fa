/**
 * Login (SCRAM-SHA-256, authSource admin) over the real driver and raw sockets. Against a real MongoDB
 * (MONGODB_URI) the checks that need a known user run only when that URI carries one; the store's own limits
 * (1 KiB before login, 5 failed attempts) are the embedded store's and run only there.
 */
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedStore } from "../src";
import { againstRealMongo, failure, hostPort, openTarget, type Target } from "./harness";
import { opMsg, opQuery, RawConnection } from "./wire-client";

let target: Target;
let login: { user: string; password: string; db: string } | undefined;

beforeAll(async () => {
  target = await openTarget("auth");
  const url = new URL(target.uri.replace(/^mongodb(\+srv)?:/, "http:"));
  if (url.username)
    login = {
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      db: url.searchParams.get("authSource") ?? "admin",
    };
});
afterAll(() => target?.close());

/** the target's URI with another user name and password */
function uriWith(user: string, password: string): string {
  return target.uri.replace(
    /^(mongodb:\/\/)[^@/]*@/,
    `$1${encodeURIComponent(user)}:${encodeURIComponent(password)}@`,
  );
}

async function unauthenticated(): Promise<RawConnection> {
  const { host, port } = hostPort(target.uri);
  return RawConnection.connect(host, port);
}

const withLogin = !againstRealMongo || Boolean(process.env.MONGODB_URI?.includes("@"));

describe.skipIf(!withLogin)("authentication", () => {
  it("should let the driver in with the right password and read and write", async () => {
    const coll = target.client.db(target.dbName).collection("auth_ok");
    await coll.insertOne({ _id: 1 as never, x: 1 });
    expect(await coll.findOne({ _id: 1 as never })).toEqual({ _id: 1, x: 1 });
    const status = await target.client.db("admin").command({ connectionStatus: 1 });
    expect(status.authInfo.authenticatedUsers).toEqual([{ user: login?.user, db: "admin" }]);
  });

  it("should refuse a wrong password and an unknown user alike: code 18, same message", async () => {
    const wrong = await failure(
      MongoClient.connect(uriWith(login?.user ?? "", "not-the-password"), { serverSelectionTimeoutMS: 3000 }),
    );
    const unknown = await failure(
      MongoClient.connect(uriWith("nobody-here", "not-the-password"), { serverSelectionTimeoutMS: 3000 }),
    );
    expect(wrong.code).toBe(18);
    expect(unknown.code).toBe(18);
    expect(wrong.message).toBe("Authentication failed.");
    expect(unknown.message).toBe(wrong.message);
  });

  it("should refuse a wrong password and an unknown user at the same SCRAM step with the same reply", async () => {
    const replies = [];
    for (const user of [login?.user ?? "", "nobody-here"]) {
      const conn = await unauthenticated();
      const reply = await conn.login(user, "not-the-password", "admin");
      conn.close();
      replies.push(reply);
    }
    for (const reply of replies)
      expect(reply).toMatchObject({
        ok: 0,
        code: 18,
        codeName: "AuthenticationFailed",
        errmsg: "Authentication failed.",
      });
  });

  it("should answer a command before login with 13 Unauthorized, but allow the handshake and ping", async () => {
    const conn = await unauthenticated();
    try {
      const find = await conn.command(
        opMsg([{ kind: 0, doc: { find: "auth_ok", filter: {}, $db: target.dbName } }]),
      );
      expect(find).toMatchObject({ ok: 0, code: 13, codeName: "Unauthorized" });
      expect(find.errmsg).toMatch(/requires authentication/);
      const insert = await conn.command(
        opMsg([{ kind: 0, doc: { insert: "auth_ok", documents: [{ _id: 99 }], $db: target.dbName } }]),
      );
      expect(insert).toMatchObject({ ok: 0, code: 13 });
      expect(await conn.command(opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }]))).toMatchObject({
        ok: 1,
      });
      const hello = await conn.command(opQuery("admin.$cmd", { isMaster: 1 }));
      expect(hello.ok).toBe(1);
    } finally {
      conn.close();
    }
    expect(
      await target.client
        .db(target.dbName)
        .collection("auth_ok")
        .findOne({ _id: 99 as never }),
    ).toBeNull();
  });

  it("should complete a login begun inside hello (speculativeAuthenticate), as the driver does", async () => {
    const conn = await unauthenticated();
    try {
      const reply = await conn.login(login?.user ?? "", login?.password ?? "", "admin", true);
      expect(reply).toMatchObject({ ok: 1, done: true });
      const find = await conn.command(
        opMsg([{ kind: 0, doc: { find: "auth_ok", filter: {}, $db: target.dbName } }]),
      );
      expect(find.ok).toBe(1);
    } finally {
      conn.close();
    }
  });

  it("should log in over saslStart by hand and check the server's signature", async () => {
    const conn = await unauthenticated();
    try {
      const reply = await conn.login(login?.user ?? "", login?.password ?? "", "admin");
      expect(reply).toMatchObject({ ok: 1, done: true });
      const count = await conn.command(opMsg([{ kind: 0, doc: { count: "auth_ok", $db: target.dbName } }]));
      expect(count).toMatchObject({ ok: 1 });
    } finally {
      conn.close();
    }
  });
});

describe.skipIf(againstRealMongo)("authentication limits of the embedded store", () => {
  it("should close a connection that sends a message over 1 KiB before login, without reading it", async () => {
    const conn = await unauthenticated();
    const big = opMsg([{ kind: 0, doc: { ping: 1, pad: "x".repeat(2000), $db: "admin" } }]);
    // the header alone says how long it is: the rest is never sent
    conn.send(big.subarray(0, 16));
    const outcome = await conn.next(3000);
    conn.close();
    expect(outcome.type).toBe("closed");
    // the same message is fine once logged in
    const logged = await RawConnection.open(target.uri);
    expect(await logged.command(big)).toMatchObject({ ok: 1 });
    logged.close();
  });

  it("should close the connection after the fifth failed login", async () => {
    const conn = await unauthenticated();
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect(await conn.login(login?.user ?? "", "wrong", "admin")).toMatchObject({ ok: 0, code: 18 });
    }
    // the fifth attempt is answered, then the connection ends
    expect(await conn.login(login?.user ?? "", "wrong", "admin")).toMatchObject({ ok: 0, code: 18 });
    expect((await conn.next(3000)).type).toBe("closed");
    conn.close();
  });

  it("should take its login from the credentials option and percent-encode it in the URI", async () => {
    const store = await startEmbeddedStore({
      memory: true,
      credentials: { user: "app user", password: "p@ss:w/rd%?" },
    });
    try {
      expect(store.uri).toContain("mongodb://app%20user:p%40ss%3Aw%2Frd%25%3F@127.0.0.1:");
      const client = await MongoClient.connect(store.uri, { serverSelectionTimeoutMS: 3000 });
      await client.db("a").collection("b").insertOne({ x: 1 });
      await client.close();
      const conn = await RawConnection.open(store.uri);
      expect(await conn.command(opMsg([{ kind: 0, doc: { count: "b", $db: "a" } }]))).toMatchObject({ n: 1 });
      conn.close();
      const wrongUser = store.uri.replace("app%20user", "vidensbank");
      await expect(MongoClient.connect(wrongUser, { serverSelectionTimeoutMS: 3000 })).rejects.toMatchObject({
        code: 18,
      });
    } finally {
      await store.close();
    }
  });

  it("should offer SCRAM-SHA-256 for any user asked about, so hello does not tell which users exist", async () => {
    const conn = await unauthenticated();
    try {
      for (const user of ["admin.vidensbank", "admin.nobody"]) {
        const hello = await conn.command(
          opMsg([{ kind: 0, doc: { hello: 1, saslSupportedMechs: user, $db: "admin" } }]),
        );
        expect(hello.saslSupportedMechs).toEqual(["SCRAM-SHA-256"]);
      }
    } finally {
      conn.close();
    }
  });
});
