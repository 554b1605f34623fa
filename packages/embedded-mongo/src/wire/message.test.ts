import { deserialize, Long, serialize } from "bson";
import { describe, expect, it } from "vitest";
import { OP_MSG, OP_REPLY } from "./constants";
import { crc32c } from "./crc32c";
import { buildOpMsg, buildOpReply, ProtocolError, parseOpMsg, parseOpQuery, readHeader } from "./message";

function frame(opCode: number, body: Buffer): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(16 + body.length, 0);
  h.writeInt32LE(7, 4);
  h.writeInt32LE(opCode, 12);
  return Buffer.concat([h, body]);
}

const doc = (d: object) => Buffer.from(serialize(d));
const flags = (f: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(f);
  return b;
};
function sequence(id: string, docs: object[]): Buffer {
  const ident = Buffer.from(`${id}\0`);
  const payload = Buffer.concat(docs.map(doc));
  const size = Buffer.alloc(4);
  size.writeInt32LE(4 + ident.length + payload.length);
  return Buffer.concat([Buffer.from([1]), size, ident, payload]);
}
const body = (d: object) => Buffer.concat([Buffer.from([0]), doc(d)]);
const parse = (buf: Buffer) => parseOpMsg(buf, readHeader(buf));

describe("parseOpMsg", () => {
  it("should merge document sequences into the body and record their sizes", () => {
    const msg = frame(
      OP_MSG,
      Buffer.concat([
        flags(0),
        body({ insert: "c", $db: "d" }),
        sequence("documents", [{ a: 1 }, { b: "xy" }]),
      ]),
    );
    const req = parse(msg);
    expect(req.command).toEqual({ insert: "c", $db: "d", documents: [{ a: 1 }, { b: "xy" }] });
    expect(req.sequenceSizes.documents).toEqual([serialize({ a: 1 }).length, serialize({ b: "xy" }).length]);
    expect(req.moreToCome).toBe(false);
  });

  it("should accept a sequence before the body", () => {
    const msg = frame(
      OP_MSG,
      Buffer.concat([flags(2), sequence("deletes", [{ q: {}, limit: 0 }]), body({ delete: "c", $db: "d" })]),
    );
    const req = parse(msg);
    expect(req.command.deletes).toHaveLength(1);
    expect(req.moreToCome).toBe(true);
  });

  it("should verify a checksum when one is present", () => {
    const unsigned = frame(OP_MSG, Buffer.concat([flags(1), body({ ping: 1, $db: "a" }), Buffer.alloc(4)]));
    unsigned.writeUInt32LE(crc32c(unsigned, 0, unsigned.length - 4), unsigned.length - 4);
    expect(parse(unsigned).command).toEqual({ ping: 1, $db: "a" });
    unsigned[unsigned.length - 1] ^= 0xff;
    expect(() => parse(unsigned)).toThrow(/checksum/);
  });

  it.each([
    ["two bodies", Buffer.concat([flags(0), body({ a: 1 }), body({ b: 1 })]), /Multiple body sections/],
    ["no body", Buffer.concat([flags(0), sequence("documents", [{ a: 1 }])]), /must have a body/],
    [
      "a field both in body and sequence",
      Buffer.concat([flags(0), body({ insert: "c", documents: [] }), sequence("documents", [{}])]),
      /Duplicate field/,
    ],
    [
      "an unknown section kind",
      Buffer.concat([flags(0), Buffer.from([7]), doc({ a: 1 })]),
      /Unknown section kind 7/,
    ],
    ["an unknown required flag", Buffer.concat([flags(1 << 4), body({ a: 1 })]), /flag bits/],
    [
      "a document length past the end",
      Buffer.concat([flags(0), Buffer.from([0, 0xff, 0, 0, 0, 0])]),
      /invalid BSON document length/,
    ],
  ])("should reject %s", (_label, payload, message) => {
    expect(() => parse(frame(OP_MSG, payload))).toThrow(ProtocolError);
    expect(() => parse(frame(OP_MSG, payload))).toThrow(message);
  });

  it("should ignore the optional exhaustAllowed bit", () => {
    expect(parse(frame(OP_MSG, Buffer.concat([flags(1 << 16), body({ ping: 1 })]))).command).toEqual({
      ping: 1,
    });
  });
});

describe("parseOpQuery", () => {
  it("should read the namespace and query", () => {
    const skipReturn = Buffer.alloc(8);
    skipReturn.writeInt32LE(-1, 4);
    const msg = frame(
      2004,
      Buffer.concat([Buffer.alloc(4), Buffer.from("admin.$cmd\0"), skipReturn, doc({ isMaster: 1 })]),
    );
    const req = parseOpQuery(msg, readHeader(msg));
    expect(req.fullCollectionName).toBe("admin.$cmd");
    expect(req.numberToReturn).toBe(-1);
    expect(req.query).toEqual({ isMaster: 1 });
  });
});

describe("reply builders", () => {
  it("should build an OP_MSG reply that answers the request id", () => {
    const out = buildOpMsg(42, { ok: 1 });
    expect(out.readInt32LE(0)).toBe(out.length);
    expect(out.readInt32LE(8)).toBe(42);
    expect(out.readInt32LE(12)).toBe(OP_MSG);
    expect(out.readUInt32LE(16)).toBe(0);
    expect(out[20]).toBe(0);
    expect(deserialize(out.subarray(21))).toEqual({ ok: 1 });
  });

  it("should build an OP_REPLY with its documents", () => {
    const out = buildOpReply(9, [{ ok: 1 }], 0, Long.fromNumber(5));
    expect(out.readInt32LE(0)).toBe(out.length);
    expect(out.readInt32LE(12)).toBe(OP_REPLY);
    expect(out.readBigInt64LE(20)).toBe(5n);
    expect(out.readInt32LE(32)).toBe(1);
    expect(deserialize(out.subarray(36))).toEqual({ ok: 1 });
  });
});
