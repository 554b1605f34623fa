/**
 * CPU-profile helper: `npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/search.profile.ts [size]`.
 * Builds the bench:search index (generated articles, same seed) and runs search()/retrieve() in a loop.
 */
import { generate, QUERIES, vocabulary } from "./search.bench";
import { KnowledgeIndex } from "../api/src/search/search.index";

const size = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 20);
const index = new KnowledgeIndex();
await index.rebuildFrom(generate(size, await vocabulary(), 20251122 + size));
for (const q of QUERIES) { index.search(q, { limit: 10 }); await index.retrieve(q, { k: 5 }); }
const t0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) for (const q of QUERIES) index.search(q, { limit: 10 });
const t1 = process.cpuUsage();
for (let r = 0; r < rounds; r++) for (const q of QUERIES) await index.retrieve(q, { k: 5 });
const t2 = process.cpuUsage();
const n = rounds * QUERIES.length;
console.log(`size ${size}: search ${((t1.user - t0.user) / n / 1000).toFixed(3)} ms CPU/query, retrieve ${((t2.user - t1.user) / n / 1000).toFixed(3)} ms CPU/query`);
