/**
 * In-process signal that a user's login sessions changed (logout, password change or reset, deletion).
 * Live connections (graphql-ws) of that user re-check their credentials and close when no longer valid.
 */
import { EventEmitter } from "node:events";
import { invalidateAuthCache } from "./auth.cache";

const emitter = new EventEmitter();
emitter.setMaxListeners(100);

export function emitSessionsChanged(userId: string): void {
  // before any listener re-checks a token: it must not be answered from the cache
  invalidateAuthCache();
  emitter.emit("changed", userId);
}

export function onSessionsChanged(listener: (userId: string) => void): () => void {
  emitter.on("changed", listener);
  return () => emitter.off("changed", listener);
}
