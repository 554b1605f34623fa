/**
 * Aggregation helpers of the engine: pipeline validation (stages the embedded store refuses, placement rules)
 * and shortcuts that answer common pipelines without running every document through mingo.
 */
import type { Document } from "bson";
import { failedToParse, location } from "./errors";
import { isPlainObject } from "./keys";

/** stages that never modify their input documents, so the stored documents can be fed to mingo directly */
export const NON_MUTATING_STAGES = new Set([
  "$match",
  "$count",
  "$group",
  "$sort",
  "$skip",
  "$limit",
  "$sortByCount",
]);
const UNSUPPORTED_STAGES: Record<string, string> = {
  $search: "$search needs Atlas Search, which the embedded store does not provide",
  $searchMeta: "$searchMeta needs Atlas Search, which the embedded store does not provide",
  $vectorSearch: "$vectorSearch needs Atlas Vector Search, which the embedded store does not provide",
  $listSearchIndexes: "$listSearchIndexes needs Atlas Search, which the embedded store does not provide",
  $geoNear: "$geoNear needs a geospatial index, which the embedded store does not support",
  $collStats: "$collStats is not supported by the embedded store (use the collStats command)",
  $indexStats: "$indexStats is not supported by the embedded store",
  $currentOp: "$currentOp is not supported by the embedded store",
  $listSessions: "$listSessions is not supported by the embedded store",
  $listLocalSessions: "$listLocalSessions is not supported by the embedded store",
};

/** Validates stage shapes and placement; returns the stage names. */
export function checkPipeline(pipeline: Document[]): string[] {
  return pipeline.map((s, i) => {
    if (!isPlainObject(s) || Object.keys(s).length !== 1)
      throw location(40323, "A pipeline stage specification object must contain exactly one field.");
    const name = Object.keys(s)[0];
    if (name === "$changeStream")
      throw location(40573, "The $changeStream stage is only supported on replica sets");
    if (UNSUPPORTED_STAGES[name])
      throw location(40324, `Unrecognized pipeline stage name: '${name}' (${UNSUPPORTED_STAGES[name]})`);
    if ((name === "$out" || name === "$merge") && i !== pipeline.length - 1)
      throw location(40601, `${name} can only be the final stage in the pipeline`);
    if (name === "$documents" && i !== 0)
      throw location(40602, "$documents is only valid as the first stage in a pipeline");
    return name;
  });
}

/**
 * countDocuments arrives as [$match, ($skip), ($limit), {$group: {_id: <constant>, n: {$sum: 1}}}]: answered
 * from the matched documents' number instead of running them through mingo.
 */
export function countShortcut(body: Document[], input: Document[]): Document[] | undefined {
  let n = input.length;
  for (let i = 0; i < body.length; i++) {
    const stage = body[i];
    if (typeof stage.$skip === "number" && i < body.length - 1) n = Math.max(0, n - stage.$skip);
    else if (typeof stage.$limit === "number" && stage.$limit > 0 && i < body.length - 1)
      n = Math.min(n, stage.$limit);
    else if (i === body.length - 1 && isPlainObject(stage.$group)) {
      const { _id, ...acc } = stage.$group as Document;
      const constantId =
        _id === null || typeof _id === "number" || (typeof _id === "string" && !_id.startsWith("$"));
      const keys = Object.keys(acc);
      if (!constantId || keys.length === 0) return undefined;
      if (!keys.every((k) => isPlainObject(acc[k]) && Object.keys(acc[k]).length === 1 && acc[k].$sum === 1))
        return undefined;
      if (n === 0) return [];
      const out: Document = { _id };
      for (const k of keys) out[k] = n;
      return [out];
    } else return undefined;
  }
  return undefined;
}

/**
 * A leading $match and/or $sort, with the $skip/$limit that follow a sort, as a query the planner can run with
 * indexes (`max`: how many sorted documents the pipeline can use at most, 0 = all). Undefined when the pipeline
 * starts with neither.
 */
export function leadingQuery(
  body: Document[],
): { filter?: Document; sort?: Document; max: number; stages: number } | undefined {
  let i = 0;
  let filter: Document | undefined;
  let sort: Document | undefined;
  if (isPlainObject(body[0]?.$match)) filter = body[i++].$match as Document;
  if (isPlainObject(body[i]?.$sort)) sort = body[i++].$sort as Document;
  if (!filter && !sort) return undefined;
  let max = 0;
  if (sort) {
    let skip = 0;
    for (let j = i; j < body.length; j++) {
      if (typeof body[j].$skip === "number") skip += body[j].$skip as number;
      else {
        if (typeof body[j].$limit === "number" && (body[j].$limit as number) > 0)
          max = skip + (body[j].$limit as number);
        break;
      }
    }
  }
  return { filter, sort, max, stages: i };
}

/** The collection an $out or $merge stage writes to: a name, or {db, coll}. */
export function writeTarget(db: string, spec: unknown, stage: string): { db: string; coll: string } {
  if (typeof spec === "string") return { db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === "string")
    return { db: typeof spec.db === "string" ? spec.db : db, coll: spec.coll };
  throw failedToParse(`${stage} needs a collection name or {db, coll}`);
}
