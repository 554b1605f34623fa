/** What the HTTP load benchmarks share: autocannon (typed here: it ships no types) and numeric flags. */
import { createRequire } from "node:module";

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

export type Autocannon = (opts: {
  url: string;
  method?: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<AutocannonResult>;

export const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** `--name N` on the command line, else `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
