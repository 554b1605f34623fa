/**
 * Replace mongoose's MongoClient with a fresh one on the same URI, for a client that has stopped talking to
 * the store without noticing: after a store crash the Node driver can be left waiting forever (a getMore on a
 * connection the crashed host never closed; a monitor check written into a socket destroyed in the same instant
 * as every other, see change-feed.ts). Its own recovery (a heartbeat timing out after connectTimeoutMS, 30 s)
 * is slow or, in the second case, never comes. A new client has a new monitor and new connections; models
 * follow it (mongoose rebinds their collections in setClient); the old client is closed (operations it still
 * runs fail, as they would have when the driver noticed).
 *
 * One replacement at a time (callers share it). Resolves once the new client has reached the store, trying every
 * SWAP_RETRY_MS while it cannot (a store still down).
 */
import mongoose from "mongoose";
import { logger } from "../logger";

/** wait between attempts to reach the store with the new client */
export const SWAP_RETRY_MS = 500;

let swapping: Promise<void> | null = null;

export function replaceDatabaseClient(isCancelled: () => boolean = () => false): Promise<void> {
  swapping ??= swap(isCancelled).finally(() => {
    swapping = null;
  });
  return swapping;
}

async function swap(isCancelled: () => boolean): Promise<void> {
  const conn = mongoose.connection;
  const old = conn.getClient();
  const url = (old as unknown as { s: { url: string } }).s.url;
  const { serverSelectionTimeoutMS, dbName } = old.options;
  for (;;) {
    // dbName: the database mongoose uses (setClient reads it from the client's options); the types omit it
    const options = { serverSelectionTimeoutMS, dbName } as mongoose.mongo.MongoClientOptions;
    const fresh = new mongoose.mongo.MongoClient(url, options);
    try {
      await fresh.connect();
    } catch (err) {
      await fresh.close(true).catch(() => undefined);
      if (isCancelled() || conn.getClient() !== old) return;
      logger.warn({ err }, "database client not replaced yet: the store does not answer");
      await new Promise((r) => setTimeout(r, SWAP_RETRY_MS));
      continue;
    }
    if (isCancelled() || conn.getClient() !== old) {
      await fresh.close(true).catch(() => undefined);
      return;
    }
    // setClient refuses a connection it believes connected: this one is not, whatever its state says
    const state = conn as unknown as { readyState: mongoose.ConnectionStates };
    if (state.readyState !== mongoose.ConnectionStates.disconnected)
      state.readyState = mongoose.ConnectionStates.disconnected;
    conn.setClient(fresh);
    logger.warn("database client replaced");
    // closed at once: what it runs is on dead connections (a write stuck there would hold up the ones queued
    // behind it, e.g. the events outbox). It may hang on its dead sockets: nobody waits for its close.
    old.close(true).catch(() => undefined);
    return;
  }
}
