/**
 * Which changes a stream sees and the change events it gets for them, in MongoDB 7's shapes (without
 * showExpandedEvents): insert, update, replace, delete, drop, rename, dropDatabase and invalidate.
 */
import type { Document } from "bson";
import type { ChangeEntry } from "../engine/changelog";
import { describeUpdate } from "./diff";
import { encodeToken, toTimestamp } from "./token";

/** what a stream watches: one collection, one database, or the whole deployment */
export type StreamScope =
  | { kind: "collection"; db: string; coll: string }
  | { kind: "database"; db: string }
  | { kind: "cluster" };

export type FullDocumentMode = "default" | "updateLookup" | "whenAvailable" | "required";

/** the current version of a document, for fullDocument: "updateLookup" (null when it is gone) */
export type LookupDocument = (db: string, coll: string, id: unknown) => Document | null;

const INTERNAL_DBS = new Set(["admin", "config", "local"]);

function visibleColl(coll: string | undefined): boolean {
  return coll === undefined || !coll.startsWith("system.");
}

/** does the stream get an event for this change */
export function concerns(scope: StreamScope, e: ChangeEntry): boolean {
  switch (scope.kind) {
    case "cluster":
      return !INTERNAL_DBS.has(e.db) && visibleColl(e.coll);
    case "database":
      return (e.db === scope.db && visibleColl(e.coll)) || (e.op === "rename" && e.to?.db === scope.db);
    case "collection":
      if (e.op === "dropDatabase") return e.db === scope.db;
      if (e.op === "rename" && e.to?.db === scope.db && e.to.coll === scope.coll) return true;
      return e.db === scope.db && e.coll === scope.coll;
  }
}

/** does this change end the stream (an invalidate event follows it) */
export function invalidates(scope: StreamScope, e: ChangeEntry): boolean {
  if (scope.kind === "collection") return e.op === "drop" || e.op === "rename" || e.op === "dropDatabase";
  if (scope.kind === "database") return e.op === "dropDatabase" && e.db === scope.db;
  return false;
}

/** the change event, or undefined when the change has none of its own for this stream */
export function changeEvent(
  scope: StreamScope,
  e: ChangeEntry,
  mode: FullDocumentMode,
  lookup: LookupDocument,
  run: string,
): Document | undefined {
  // a collection stream learns of a database drop through its collection's drop event, then is invalidated
  if (scope.kind === "collection" && e.op === "dropDatabase") return undefined;
  const event: Document = {
    _id: encodeToken(e.seq, "event", run),
    operationType: e.op,
    clusterTime: toTimestamp(e.seq),
    wallTime: e.wall,
  };
  const ns = e.coll === undefined ? { db: e.db } : { db: e.db, coll: e.coll };
  switch (e.op) {
    case "insert":
    case "replace":
      return { ...event, fullDocument: e.doc, ns, documentKey: { _id: e.id } };
    case "update": {
      e.description ??= describeUpdate(e.before ?? {}, e.doc ?? {});
      if (mode === "updateLookup") event.fullDocument = lookup(e.db, e.coll ?? "", e.id);
      else if (mode !== "default") event.fullDocument = e.doc;
      return { ...event, ns, documentKey: { _id: e.id }, updateDescription: e.description };
    }
    case "delete":
      return { ...event, ns, documentKey: { _id: e.id } };
    case "rename":
      return { ...event, ns, to: e.to };
    default:
      return { ...event, ns };
  }
}

export function invalidateEvent(e: ChangeEntry, run: string): Document {
  return {
    _id: encodeToken(e.seq, "invalidate", run),
    operationType: "invalidate",
    clusterTime: toTimestamp(e.seq),
    wallTime: e.wall,
  };
}

/** a rough upper bound of an event's BSON size, to keep batches under the reply limit */
export function eventSizeEstimate(e: ChangeEntry): number {
  return e.bytes + 1024;
}
