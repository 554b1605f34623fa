/**
 * A change stream's cheap test before its events are built: what the leading $match stages require of the
 * operation type and namespace, read from the change log entry itself. A database-wide stream that wants two
 * collections (the app's sign-in stream) otherwise builds and matches an event for every change in the database.
 * It only ever rejects what the $match would reject: it understands equality and $in/$eq with strings on
 * `operationType`, `ns.db` and `ns.coll`, combined with $and/$or; any other condition puts no limit here (the
 * $match still decides).
 */
import type { Document } from "bson";
import type { ChangeEntry } from "../engine/changelog";
import { isPlainObject } from "../engine/keys";

type EntryTest = (e: ChangeEntry) => boolean;

/** what each understood field is in the event: operationType is the change's op, ns.db/ns.coll its namespace */
const FIELDS: Record<string, (e: ChangeEntry) => string | undefined> = {
  operationType: (e) => e.op,
  "ns.db": (e) => e.db,
  "ns.coll": (e) => e.coll,
};

function valueTest(value: unknown, get: (e: ChangeEntry) => string | undefined): EntryTest | undefined {
  if (typeof value === "string") return (e) => get(e) === value;
  if (!isPlainObject(value)) return undefined;
  const ops = Object.keys(value);
  if (ops.length !== 1) return undefined;
  if (ops[0] === "$eq" && typeof value.$eq === "string") return (e) => get(e) === value.$eq;
  if (ops[0] === "$in" && Array.isArray(value.$in) && value.$in.every((v) => typeof v === "string")) {
    const allowed = new Set(value.$in as string[]);
    return (e) => {
      const v = get(e);
      return v !== undefined && allowed.has(v);
    };
  }
  return undefined;
}

/** a necessary condition of `filter` on the entry, or undefined when it limits nothing understood here */
function filterTest(filter: unknown): EntryTest | undefined {
  if (!isPlainObject(filter)) return undefined;
  const tests: EntryTest[] = [];
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    let test: EntryTest | undefined;
    if ((key === "$and" || key === "$or") && Array.isArray(value) && value.length > 0) {
      const parts = value.map(filterTest);
      if (key === "$and") {
        const known = parts.filter((t): t is EntryTest => t !== undefined);
        if (known.length > 0) test = (e) => known.every((t) => t(e));
      } else if (parts.every((t) => t !== undefined)) {
        // an $or limits only when each branch does
        const branches = parts as EntryTest[];
        test = (e) => branches.some((t) => t(e));
      }
    } else if (Object.hasOwn(FIELDS, key)) test = valueTest(value, FIELDS[key]);
    if (test) tests.push(test);
  }
  if (tests.length === 0) return undefined;
  return tests.length === 1 ? tests[0] : (e) => tests.every((t) => t(e));
}

/** the test of the leading $match stages (all must pass), or undefined when they limit nothing understood */
export function entryPrefilter(stages: Document[]): EntryTest | undefined {
  const tests: EntryTest[] = [];
  for (const stage of stages) {
    if (Object.keys(stage)[0] !== "$match") break;
    const test = filterTest(stage.$match);
    if (test) tests.push(test);
  }
  if (tests.length === 0) return undefined;
  return tests.length === 1 ? tests[0] : (e) => tests.every((t) => t(e));
}
