/**
 * Message framing: parse OP_MSG / OP_QUERY requests and build OP_MSG / OP_REPLY replies.
 * https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/
 */
import { type Document, deserialize, Long, serialize } from "bson";
import {
  HEADER_SIZE,
  MAX_BSON_INTERNAL_SIZE,
  MSG_CHECKSUM_PRESENT,
  MSG_KNOWN_BITS,
  MSG_MORE_TO_COME,
  MSG_REQUIRED_BITS_MASK,
  OP_MSG,
  OP_REPLY,
} from "./constants";
import { crc32c } from "./crc32c";

export interface MessageHeader {
  messageLength: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export interface OpMsgRequest {
  kind: "msg";
  header: MessageHeader;
  flags: number;
  moreToCome: boolean;
  /** the body with every document sequence merged in as an array field */
  command: Document;
  /** BSON size of each document that arrived in a kind-1 sequence, by field name (size checks without re-encoding) */
  sequenceSizes: Record<string, number[]>;
}

export interface OpQueryRequest {
  kind: "query";
  header: MessageHeader;
  flags: number;
  fullCollectionName: string;
  numberToSkip: number;
  numberToReturn: number;
  query: Document;
}

export type Request = OpMsgRequest | OpQueryRequest;

/** A message whose content cannot be understood; the server answers it with an error reply. */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "ProtocolError";
  }
}

export function readHeader(buf: Buffer): MessageHeader {
  return {
    messageLength: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

const DESERIALIZE_OPTIONS = { allowObjectSmallerThanBufferSize: false } as const;

function readDocument(
  buf: Buffer,
  offset: number,
  end: number,
  what: string,
): { doc: Document; size: number } {
  if (offset + 5 > end) throw new ProtocolError(22, `${what}: truncated BSON document`);
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) {
    throw new ProtocolError(22, `${what}: invalid BSON document length ${size}`);
  }
  if (size > MAX_BSON_INTERNAL_SIZE) {
    throw new ProtocolError(
      10334,
      `BSONObj size: ${size} (0x${size.toString(16).toUpperCase()}) is invalid. Size must be between 0 and ${MAX_BSON_INTERNAL_SIZE}(16MB)`,
    );
  }
  try {
    return { doc: deserialize(buf.subarray(offset, offset + size), DESERIALIZE_OPTIONS), size };
  } catch (err) {
    throw new ProtocolError(22, `${what}: invalid BSON: ${(err as Error).message}`);
  }
}

function readCString(
  buf: Buffer,
  offset: number,
  end: number,
  what: string,
): { value: string; next: number } {
  const zero = buf.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new ProtocolError(22, `${what}: unterminated string`);
  return { value: buf.toString("utf8", offset, zero), next: zero + 1 };
}

/** Parse a complete OP_MSG message (header included). */
export function parseOpMsg(buf: Buffer, header: MessageHeader): OpMsgRequest {
  if (buf.length < HEADER_SIZE + 5) throw new ProtocolError(22, "OP_MSG message too short");
  const flags = buf.readUInt32LE(HEADER_SIZE);
  const unknownRequired = flags & MSG_REQUIRED_BITS_MASK & ~MSG_KNOWN_BITS;
  if (unknownRequired) {
    throw new ProtocolError(40415, `Unrecognized OP_MSG flag bits: 0x${unknownRequired.toString(16)}`);
  }
  let end = buf.length;
  if (flags & MSG_CHECKSUM_PRESENT) {
    end -= 4;
    if (end < HEADER_SIZE + 4) throw new ProtocolError(22, "OP_MSG message too short for its checksum");
    const expected = buf.readUInt32LE(end);
    if (crc32c(buf, 0, end) !== expected)
      throw new ProtocolError(2, "OP_MSG checksum does not match contents");
  }
  let offset = HEADER_SIZE + 4;
  let body: Document | undefined;
  const sequences: [string, Document[]][] = [];
  const sequenceSizes: Record<string, number[]> = {};
  while (offset < end) {
    const kind = buf[offset++];
    if (kind === 0) {
      if (body) throw new ProtocolError(40430, "Multiple body sections in OP_MSG");
      const { doc, size } = readDocument(buf, offset, end, "OP_MSG body");
      body = doc;
      offset += size;
    } else if (kind === 1) {
      if (offset + 4 > end) throw new ProtocolError(22, "OP_MSG document sequence truncated");
      const size = buf.readInt32LE(offset);
      const seqEnd = offset + size;
      if (size < 5 || seqEnd > end)
        throw new ProtocolError(22, `OP_MSG document sequence has invalid length ${size}`);
      const { value: id, next } = readCString(buf, offset + 4, seqEnd, "OP_MSG document sequence");
      offset = next;
      const docs: Document[] = [];
      const sizes: number[] = [];
      while (offset < seqEnd) {
        const { doc, size: docSize } = readDocument(buf, offset, seqEnd, `OP_MSG document sequence '${id}'`);
        docs.push(doc);
        sizes.push(docSize);
        offset += docSize;
      }
      sequences.push([id, docs]);
      sequenceSizes[id] = sizes;
    } else {
      throw new ProtocolError(40432, `Unknown section kind ${kind} in OP_MSG`);
    }
  }
  if (!body) throw new ProtocolError(40587, "OP_MSG messages must have a body");
  for (const [id, docs] of sequences) {
    if (Object.hasOwn(body, id)) throw new ProtocolError(40433, `Duplicate field name in OP_MSG: ${id}`);
    body[id] = docs;
  }
  return {
    kind: "msg",
    header,
    flags,
    moreToCome: (flags & MSG_MORE_TO_COME) !== 0,
    command: body,
    sequenceSizes,
  };
}

/** Parse a complete OP_QUERY message (only used for the handshake by current drivers). */
export function parseOpQuery(buf: Buffer, header: MessageHeader): OpQueryRequest {
  const end = buf.length;
  if (end < HEADER_SIZE + 4 + 1 + 8 + 5) throw new ProtocolError(22, "OP_QUERY message too short");
  const flags = buf.readInt32LE(HEADER_SIZE);
  const { value: fullCollectionName, next } = readCString(
    buf,
    HEADER_SIZE + 4,
    end,
    "OP_QUERY collection name",
  );
  if (next + 8 > end) throw new ProtocolError(22, "OP_QUERY message truncated");
  const numberToSkip = buf.readInt32LE(next);
  const numberToReturn = buf.readInt32LE(next + 4);
  const { doc: query } = readDocument(buf, next + 8, end, "OP_QUERY query");
  return { kind: "query", header, flags, fullCollectionName, numberToSkip, numberToReturn, query };
}

let nextRequestId = 1;
function requestId(): number {
  nextRequestId = (nextRequestId + 1) & 0x7fffffff;
  return nextRequestId;
}

/** Build an OP_MSG reply with one body section. */
export function buildOpMsg(responseTo: number, doc: Document): Buffer {
  const body = serialize(doc);
  const out = Buffer.allocUnsafe(HEADER_SIZE + 5 + body.length);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(requestId(), 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OP_MSG, 12);
  out.writeUInt32LE(0, 16);
  out[20] = 0;
  out.set(body, 21);
  return out;
}

/** Build an OP_REPLY with the given documents. */
export function buildOpReply(
  responseTo: number,
  docs: Document[],
  responseFlags = 0,
  cursorId = Long.ZERO,
): Buffer {
  const bodies = docs.map((d) => serialize(d));
  const size = HEADER_SIZE + 20 + bodies.reduce((n, b) => n + b.length, 0);
  const out = Buffer.allocUnsafe(size);
  out.writeInt32LE(size, 0);
  out.writeInt32LE(requestId(), 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(OP_REPLY, 12);
  out.writeInt32LE(responseFlags, 16);
  out.writeInt32LE(cursorId.low, 20);
  out.writeInt32LE(cursorId.high, 24);
  out.writeInt32LE(0, 28);
  out.writeInt32LE(docs.length, 32);
  let offset = 36;
  for (const b of bodies) {
    out.set(b, offset);
    offset += b.length;
  }
  return out;
}
