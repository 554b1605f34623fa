import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc32c } from "../src/wire/crc32c";
import { againstRealMongo, hostPort, openTarget, type Target } from "./harness";
import {
  bigStringDocument,
  OP_MSG,
  OP_REPLY,
  type Outcome,
  opMsg,
  opQuery,
  RawConnection,
  rawMessage,
} from "./wire-client";

let target: Target;
let host: string;
let port: number;

beforeAll(async () => {
  target = await openTarget("protocol");
  ({ host, port } = hostPort(target.uri));
});
afterAll(() => target?.close());

async function connect(): Promise<RawConnection> {
  return RawConnection.open(target.uri);
}

/** A malformed message must be answered with an error or end the connection: never a success, never a hang. */
function expectRejected(outcome: Outcome): void {
  if (outcome.type === "reply") expect(outcome.reply.doc.ok).toBe(0);
  else expect(outcome.type).toBe("closed");
}

async function expectServerStillServes(): Promise<void> {
  const conn = await connect();
  const reply = await conn.command(opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }]));
  expect(reply.ok).toBe(1);
  conn.close();
  await expect(target.client.db(target.dbName).command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
}

describe("wire protocol", () => {
  it("should answer the OP_QUERY handshake on admin.$cmd with an OP_REPLY describing a replica set primary", async () => {
    const conn = await connect();
    conn.send(
      opQuery("admin.$cmd", {
        isMaster: 1,
        helloOk: true,
        client: { driver: { name: "raw", version: "0" } },
      }),
    );
    const outcome = await conn.next();
    conn.close();
    expect(outcome.type).toBe("reply");
    if (outcome.type !== "reply") return;
    expect(outcome.reply.opCode).toBe(OP_REPLY);
    const hello = outcome.reply.doc;
    expect(hello).toMatchObject({
      ok: 1,
      ismaster: true,
      helloOk: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      logicalSessionTimeoutMinutes: 30,
      readOnly: false,
    });
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(9);
    expect(hello.minWireVersion).toBe(0);
    // change streams need a replica set: the store is the primary of a single-member set
    expect(typeof hello.setName).toBe("string");
    expect(hello.hosts).toContain(hello.primary);
    expect(hello.msg).toBeUndefined();
    expect(hello.localTime).toBeInstanceOf(Date);
    if (!againstRealMongo) {
      expect(hello).toMatchObject({ setName: "rs0", hosts: [`${host}:${port}`], me: `${host}:${port}` });
      expect(hello.maxWireVersion).toBe(21);
      expect(hello.compression).toBeUndefined();
    }
  });

  it("should answer hello over OP_MSG with isWritablePrimary", async () => {
    const conn = await connect();
    const hello = await conn.command(opMsg([{ kind: 0, doc: { hello: 1, $db: "admin" } }]));
    conn.close();
    expect(hello).toMatchObject({ ok: 1, isWritablePrimary: true, maxWriteBatchSize: 100_000 });
  });

  it("should refuse other commands sent with OP_QUERY like mongod (352)", async () => {
    const conn = await connect();
    conn.send(opQuery(`${target.dbName}.$cmd`, { ping: 1 }));
    const outcome = await conn.next();
    conn.close();
    expect(outcome.type).toBe("reply");
    if (outcome.type === "reply") expect(outcome.reply.doc).toMatchObject({ ok: 0, code: 352 });
  });

  it("should merge kind-1 document sequences into the command as arrays", async () => {
    const conn = await connect();
    const insert = await conn.command(
      opMsg([
        { kind: 0, doc: { insert: "seq", $db: target.dbName } },
        {
          kind: 1,
          id: "documents",
          docs: [
            { _id: 1, a: "x" },
            { _id: 2, a: "y" },
            { _id: 3, a: "z" },
          ],
        },
      ]),
    );
    expect(insert).toMatchObject({ ok: 1, n: 3 });
    const update = await conn.command(
      opMsg([
        { kind: 0, doc: { update: "seq", $db: target.dbName } },
        {
          kind: 1,
          id: "updates",
          docs: [
            { q: { _id: 1 }, u: { $set: { a: "X" } } },
            { q: { _id: 9 }, u: { $set: { a: "new" } }, upsert: true },
          ],
        },
      ]),
    );
    expect(update).toMatchObject({ ok: 1, n: 2, nModified: 1, upserted: [{ index: 1, _id: 9 }] });
    const found = await conn.command(
      opMsg([{ kind: 0, doc: { find: "seq", filter: {}, sort: { _id: 1 }, $db: target.dbName } }]),
    );
    conn.close();
    expect(found.cursor.firstBatch.map((d: { a: string }) => d.a)).toEqual(["X", "y", "z", "new"]);
  });

  it("should accept a message carrying a valid CRC-32C checksum", async () => {
    const conn = await connect();
    const reply = await conn.command(opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }], 1, crc32c));
    conn.close();
    expect(reply.ok).toBe(1);
  });

  it("should reject a message whose checksum does not match", async () => {
    const conn = await connect();
    conn.send(opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }], 1, (buf) => (crc32c(buf) + 1) >>> 0));
    expectRejected(await conn.next());
    conn.close();
    await expectServerStillServes();
  });

  it("should not reply to a moreToCome message and keep serving the connection", async () => {
    const conn = await connect();
    conn.send(
      opMsg(
        [
          {
            kind: 0,
            doc: { insert: "quiet", documents: [{ _id: 1 }], writeConcern: { w: 0 }, $db: target.dbName },
          },
        ],
        2,
      ),
    );
    expect((await conn.next(300)).type).toBe("timeout");
    const ping = opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }]);
    const pingId = ping.readInt32LE(4);
    conn.send(ping);
    const outcome = await conn.next();
    expect(outcome.type).toBe("reply");
    if (outcome.type === "reply") {
      expect(outcome.reply.opCode).toBe(OP_MSG);
      expect(outcome.reply.responseTo).toBe(pingId);
    }
    const count = await conn.command(opMsg([{ kind: 0, doc: { count: "quiet", $db: target.dbName } }]));
    conn.close();
    expect(count.n).toBe(1);
  });

  it("should refuse a document past the 16 MiB + 16 KiB command limit with 10334 BSONObjectTooLarge", async () => {
    const conn = await connect();
    const reply = await conn.command(
      opMsg([
        { kind: 0, doc: { insert: "huge", $db: target.dbName } },
        { kind: 1, id: "documents", docs: [bigStringDocument("huge", 17 * 1024 * 1024)] },
      ]),
    );
    const count = await conn.command(opMsg([{ kind: 0, doc: { count: "huge", $db: target.dbName } }]));
    conn.close();
    expect(reply).toMatchObject({ ok: 0, code: 10334, codeName: "BSONObjectTooLarge" });
    expect(count.n).toBe(0);
  });

  it("should reject an OP_MSG without $db", async () => {
    const conn = await connect();
    const reply = await conn.command(opMsg([{ kind: 0, doc: { ping: 1 } }]));
    conn.close();
    expect(reply).toMatchObject({ ok: 0, code: 40571 });
  });

  it("should close the connection on a message length below the header size and keep serving others", async () => {
    const conn = await connect();
    conn.send(rawMessage(8, OP_MSG, Buffer.alloc(16)));
    expect((await conn.next()).type).toBe("closed");
    await expectServerStillServes();
  });

  it("should close the connection on a message longer than maxMessageSizeBytes", async () => {
    const conn = await connect();
    conn.send(rawMessage(48_000_001 + 1000, OP_MSG, Buffer.alloc(64)));
    expect((await conn.next()).type).toBe("closed");
    await expectServerStillServes();
  });

  it("should reject an unknown opcode", async () => {
    const conn = await connect();
    conn.send(rawMessage(16 + 8, 4242, Buffer.alloc(8)));
    expectRejected(await conn.next());
    conn.close();
    await expectServerStillServes();
  });

  it("should answer truncated BSON with an error (or close the connection)", async () => {
    const conn = await connect();
    const good = opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }]);
    // keep the frame consistent but claim a body document longer than the message
    const bad = Buffer.from(good);
    bad.writeInt32LE(good.length + 50, 21);
    conn.send(bad);
    const outcome = await conn.next();
    expectRejected(outcome);
    if (!againstRealMongo && outcome.type === "reply") expect(outcome.reply.doc.code).toBe(22);
    conn.close();
    await expectServerStillServes();
  });

  it("should answer corrupt BSON content with an error (or close the connection)", async () => {
    const conn = await connect();
    const good = opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }]);
    const bad = Buffer.from(good);
    bad[25] = 0x7e; // first element's type byte → an invalid BSON type
    conn.send(bad);
    expectRejected(await conn.next());
    conn.close();
    await expectServerStillServes();
  });

  it("should reject unknown required OP_MSG flag bits", async () => {
    const conn = await connect();
    conn.send(opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }], 1 << 5));
    expectRejected(await conn.next());
    conn.close();
    await expectServerStillServes();
  });

  it("should survive a burst of well-framed OP_MSGs with random content", async () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const template = opMsg([
      { kind: 0, doc: { find: "fuzz", filter: { a: { $gt: 1 } }, $db: target.dbName } },
    ]);
    for (let round = 0; round < 40; round++) {
      const conn = await connect();
      for (let m = 0; m < 5; m++) {
        const msg = Buffer.from(template);
        const flips = 1 + Math.floor(random() * 6);
        for (let f = 0; f < flips; f++)
          msg[16 + Math.floor(random() * (msg.length - 16))] = Math.floor(random() * 256);
        conn.send(msg);
      }
      // every message is answered (an error or a result) or the connection is closed
      for (let m = 0; m < 5; m++) {
        const outcome = await conn.next(5000);
        if (outcome.type !== "reply") {
          expect(outcome.type).toBe("closed");
          break;
        }
      }
      conn.close();
    }
    await expectServerStillServes();
  });

  it("should survive random garbage and a peer that disconnects mid-message", async () => {
    const garbage = await connect();
    garbage.send(Buffer.from("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    expectRejected(await garbage.next());
    garbage.close();
    const partial = await connect();
    const msg = opMsg([{ kind: 0, doc: { ping: 1, $db: "admin" } }]);
    partial.send(msg.subarray(0, msg.length - 3));
    partial.close();
    await expectServerStillServes();
  });
});
