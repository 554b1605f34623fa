/**
 * Options for node itself that each API process runs with: `npm run start:cluster`'s workers (cluster.ts), the
 * several-process tests' and benches' app processes (testing/processes.ts) and the Docker image (its CMD repeats
 * them; keep the two in step).
 *
 * `--max-semi-space-size=64` (MB): a larger young generation. A request allocates short-lived objects (GraphQL
 * results, driver buffers, JSON); with room for more of them between two scavenges, fewer scavenges run and fewer
 * objects that die soon after are copied. Node 20's default ceiling is 16 MB. In the 400-user mix (stop 28, two
 * runs each on a shared machine): app A's main-thread GC 5.0 → 3.5 % of its busy time in the profile, app CPU
 * per chat (A+B, /proc) 25.7–26.1 → 24.1–24.5 ms (32 MB: 22.0 and 26.9, not clearer); it costs memory: each
 * app process's peak RSS ~410 → ~565 MB. The store process is not given it (its CPU per chat did not move, its
 * main-thread GC 9.9 → 9.0 %, and its RSS grew ~60 MB).
 */
export const API_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];
