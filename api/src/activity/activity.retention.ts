/**
 * How long the activity log keeps its entries (ACTIVITY_RETENTION_DAYS, config.ts): a TTL index on `timestamp`
 * makes the store itself remove older entries (mongod and the embedded store sweep every 60 s), so every process
 * and every writer is covered and nothing in the app has to run. 0 keeps entries forever (no index).
 *
 * Applied at start-up (services.ready()): the index is created, or made again when the retention changed
 * (the embedded store has no collMod, so a changed TTL is dropped and created; for that moment nothing expires).
 * Several processes starting with the same setting create the same index, which the store accepts.
 */
import { ActivityModel } from "./activity.model";

export const RETENTION_INDEX = "timestamp_retention";

const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

const code = (e: unknown) => (e as { code?: unknown }).code;

async function retentionIndex(): Promise<{ expireAfterSeconds?: number } | undefined> {
  try {
    const indexes = await ActivityModel.collection.indexes();
    return indexes.find((i) => i.name === RETENTION_INDEX);
  } catch (e) {
    if (code(e) === NAMESPACE_NOT_FOUND) return undefined;
    throw e;
  }
}

async function dropRetentionIndex(): Promise<void> {
  try {
    await ActivityModel.collection.dropIndex(RETENTION_INDEX);
  } catch (e) {
    // another process dropped it first
    if (code(e) !== INDEX_NOT_FOUND && code(e) !== NAMESPACE_NOT_FOUND) throw e;
  }
}

/** Make the store remove activity entries older than `days` days (0: keep them all). */
export async function applyActivityRetention(days: number): Promise<void> {
  const current = await retentionIndex();
  const seconds = days * 86_400;
  if (current && current.expireAfterSeconds === seconds) return;
  if (current) await dropRetentionIndex();
  if (days === 0) return;
  await ActivityModel.collection.createIndex(
    { timestamp: 1 },
    { name: RETENTION_INDEX, expireAfterSeconds: seconds },
  );
}
