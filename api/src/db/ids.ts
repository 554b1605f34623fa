/**
 * Ids, written once. Every document id and every reference to a user is an ObjectId in the store; an id that
 * comes from a client is a string and is checked here (24 hex digits). mongoose.isValidObjectId is not used:
 * it also accepts any 12-character string.
 */
import mongoose from "mongoose";

export type ObjectId = mongoose.Types.ObjectId;

const OBJECT_ID_RE = /^[0-9a-f]{24}$/i;

/** true for a 24-hex-digit id string. */
export function isObjectIdString(id: unknown): id is string {
  return typeof id === "string" && OBJECT_ID_RE.test(id);
}

/** The id as an ObjectId: an ObjectId as it is, a 24-hex string converted, anything else null (never throws). */
export function toObjectId(id: unknown): ObjectId | null {
  if (id instanceof mongoose.Types.ObjectId) return id;
  return isObjectIdString(id) ? new mongoose.Types.ObjectId(id) : null;
}
