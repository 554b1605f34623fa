/**
 * CPU-profile helper: `npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/search.profile.ts [size] [rounds] [cold]`.
 * Builds the bench:search index (generated articles, same seed) and runs search()/retrieve() over its queries,
 * printing CPU per query. `cold` makes every call a new query string (trailing spaces: the same analysis), so
 * no cached analysis or ranking is reused (retrieve() gets strings search() did not see: a chat question alone).
 */
import { KnowledgeIndex } from "../api/src/search/search.index";
import { generate, QUERIES, vocabulary } from "./search.corpus";

const size = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 20);
const cold = process.argv[4] === "cold";
const text = (q: string, r: number): string => (cold ? `${q}${" ".repeat(r + 1)}` : q);
const index = new KnowledgeIndex();
await index.rebuildFrom(generate(size, await vocabulary(), 20251122 + size));
for (const q of QUERIES) {
  index.search(q, { limit: 10 });
  await index.retrieve(q, { k: 5 });
}
const t0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) for (const q of QUERIES) index.search(text(q, r), { limit: 10 });
const t1 = process.cpuUsage();
for (let r = 0; r < rounds; r++) for (const q of QUERIES) await index.retrieve(text(q, rounds + r), { k: 5 });
const t2 = process.cpuUsage();
const n = rounds * QUERIES.length;
const ms = (us: number): string => (us / n / 1000).toFixed(3);
console.log(
  `size ${size}${cold ? " cold" : ""}: search ${ms(t1.user - t0.user)} ms CPU/query, retrieve ${ms(t2.user - t1.user)} ms CPU/query`,
);
