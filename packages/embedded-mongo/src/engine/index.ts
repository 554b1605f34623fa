/**
 * Storage engine of the embedded MongoDB-compatible store. See types.ts for the contract.
 */
import { EmbeddedEngine } from "./engine";
import type { Engine, EngineOptions } from "./types";

export * from "./types";

/**
 * Creates an engine: in memory when `options.dbpath` is absent, otherwise durable in that directory (locks it,
 * recovers snapshot + write-ahead log). Throws StoreError when the directory is locked by a live process.
 */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const engine = new EmbeddedEngine(options);
  engine.open();
  return engine;
}
