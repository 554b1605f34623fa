/**
 * Resume tokens and operation times.
 *
 * A token is `{ _data: <hex> }` like MongoDB's: "82" (the KeyString type byte of a Timestamp, as in MongoDB's
 * own tokens) + 16 hex digits of the operation time (seconds << 32 | increment) + 2 hex digits of kind + 8 hex
 * digits naming the run of the store (the history does not outlive a run). Tokens of later changes compare
 * greater as strings. Clients treat them as opaque.
 */
import { type Document, Timestamp } from "bson";
import { seqParts, toSeq } from "../engine/changelog";
import { commandError } from "../wire/errors";

/** an event, a high-water mark (a position with no event of its own), or the invalidate after an event */
export type TokenKind = "event" | "mark" | "invalidate";

const KIND_HEX: Record<TokenKind, string> = { mark: "00", event: "01", invalidate: "02" };
const HEX_KIND: Record<string, TokenKind> = { "00": "mark", "01": "event", "02": "invalidate" };
const TOKEN = /^82([0-9a-f]{16})(0[0-2])([0-9a-f]{8})$/;

export function encodeToken(seq: bigint, kind: TokenKind, run: string): Document {
  return { _data: `82${seq.toString(16).padStart(16, "0")}${KIND_HEX[kind]}${run}` };
}

export function decodeToken(token: unknown, option: string): { seq: bigint; kind: TokenKind; run: string } {
  const data = (token as Document | null)?._data;
  const match = typeof data === "string" ? TOKEN.exec(data.toLowerCase()) : null;
  if (!match) {
    throw commandError(
      260,
      `Bad resume token in '${option}': not a resume token of this store (expected { _data: "82..." })`,
    );
  }
  return { seq: BigInt(`0x${match[1]}`), kind: HEX_KIND[match[2]], run: match[3] };
}

export function toTimestamp(seq: bigint): Timestamp {
  const { t, i } = seqParts(seq);
  return new Timestamp({ t, i });
}

export function fromTimestamp(value: unknown, option: string): bigint {
  if (!(value instanceof Timestamp)) {
    throw commandError(
      14,
      `BSON field '$changeStream.${option}' is the wrong type, expected type 'timestamp'`,
    );
  }
  return toSeq(value.high, value.low);
}
