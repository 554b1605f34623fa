/**
 * What holds the search index's heap (issue 16): `tsx --expose-gc bench/search-heap.ts [size]` (default 20,000).
 *
 * As a warm start does, the index is restored from a persisted snapshot (built once from the bench:search corpus,
 * seed 20251122, and kept in the temp dir for the next run), or, as a cold start does, built from that corpus
 * (rebuildFrom(), timed), then searched as the start-up's first search and warm-up do (warmup.ts's searches and
 * questions). Then the cold-start bench's edits (search-cold-start.ts: 100 articles' contents replaced, 20
 * removed, 20 added) go through upsertArticle()/removeArticle() as the catalog's catch-up does, and the same
 * searches run again. Four states (restored, restored after edits, built, built after edits), each measured in a
 * child process of its own: heapUsed (after gc) of the index, counts of its radix trees' posting sets (a Set in
 * the heap, or a PostingSet: an Int32Array outside it), search() CPU per query, then the index torn down
 * structure by structure, each line the heap freed by dropping it (its retained size; shared strings count where
 * they are dropped first).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AnyOrama } from "@orama/orama";
import { KnowledgeIndex } from "../api/src/search/search.index";
import { indexFormatKey, snapshotIndex } from "../api/src/search/search.persist";
import { PostingSet } from "../api/src/search/search.postings";
import { readSnapshotFile, writeSnapshotFile } from "../api/src/search/search.snapshot-file";
import { WARMUP_QUESTIONS, WARMUP_SEARCHES } from "../api/src/warmup.queries";
import { generate, QUERIES, vocabulary } from "./search.corpus";
import { freshText } from "./search-api.client";

const SEED = 20251122;
const SIZE = Number(process.argv[2]) || 20_000;
type Phase = "start" | "edits" | "built" | "built-edits";
const PHASES: Phase[] = ["start", "edits", "built", "built-edits"];
const PHASE = process.argv[3] as Phase | undefined;
/** one file per format key: old and new code compared alternately keep theirs */
const FILE = path.join(os.tmpdir(), `vidensbank-search-heap-${SIZE}-${indexFormatKey().slice(0, 12)}.bin`);
/** warmup.ts's searches and questions, and the cold-start child's first search */
const SEARCHES = WARMUP_SEARCHES;
const QUESTIONS = WARMUP_QUESTIONS;

const gc = (globalThis as { gc?: () => void }).gc;
function heap(): number {
  if (!gc) throw new Error("run with --expose-gc");
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

type Node = { d: Set<number>; c: Map<string, Node> };
type Internals = {
  articleDb: AnyOrama;
  passageDb: AnyOrama;
  articles: Map<string, unknown>;
  passages: Map<string, unknown>;
  vocabulary: unknown;
  queries: unknown;
  termSets: unknown;
  snippetSources: unknown;
};
type IndexData = {
  indexes: Record<string, { node: Node }>;
  fieldLengths: Record<string, unknown>;
  tokenOccurrences: Record<string, unknown>;
  frequencies: Record<string, unknown>;
};

function* nodes(db: AnyOrama): Generator<Node> {
  for (const { node } of Object.values((db.data.index as unknown as IndexData).indexes)) {
    const stack = [node];
    while (stack.length) {
      const n = stack.pop() as Node;
      yield n;
      for (const c of n.c.values()) stack.push(c);
    }
  }
}

/** A node's documents when held in an Int32Array (a PostingSet; before this stop's fix, one not opened yet). */
function compact(d: Set<number>): Int32Array | null {
  if (!(d instanceof PostingSet)) return null;
  const p = d as unknown as { unopened?: Int32Array | null; view?: () => Int32Array };
  return p.unopened !== undefined ? p.unopened : (p.view?.() ?? null);
}

/** Posting sets of a database: [nodes, Sets (in the heap), their ids, Int32Array-backed sets, their ids]. */
function postings(db: AnyOrama): number[] {
  const out = [0, 0, 0, 0, 0];
  for (const n of nodes(db)) {
    out[0]++;
    const unopened = compact(n.d);
    if (unopened) {
      out[3]++;
      out[4] += unopened.length;
    } else if (n.d.size > 0) {
      out[1]++;
      out[2] += n.d.size;
    }
  }
  return out;
}

async function ensureSnapshot(): Promise<void> {
  if ((await readSnapshotFile(FILE, indexFormatKey())).ok) return;
  console.log(`building ${SIZE} articles for ${FILE} (once per format key) ...`);
  const index = new KnowledgeIndex();
  await index.rebuildFrom(generate(SIZE, await vocabulary(), SEED));
  const snap = snapshotIndex(index.persistedState());
  await writeSnapshotFile(FILE, { key: indexFormatKey(), meta: {}, ...snap });
}

async function restore(index: KnowledgeIndex): Promise<void> {
  const read = await readSnapshotFile(FILE, indexFormatKey());
  if (!read.ok) throw new Error(read.reason);
  const { json, ints, floats, text } = read.file;
  await index.restore({ json: json as never, ints, floats, text });
}

async function measure(phase: Phase): Promise<void> {
  const vocab = await vocabulary();
  const built = phase === "built" || phase === "built-edits";
  const editing = phase === "edits" || phase === "built-edits";
  const added = editing ? generate(20, vocab, SEED + 7) : [];
  const before = heap();
  // generated after `before`: the articles' texts the index keeps count as the index's, as a restored one's do
  let corpus = built ? generate(SIZE, vocab, SEED) : [];
  const index = new KnowledgeIndex();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  // nothing of the file read (or of the generated articles) is kept here: only what the index holds
  if (built) await index.rebuildFrom(corpus);
  else await restore(index);
  corpus = [];
  const loadMs = performance.now() - t0;
  const loadCpu = process.cpuUsage(c0);
  let edits = 0;
  const run = async () => {
    for (const q of SEARCHES) index.search(q);
    for (const q of QUESTIONS) await index.retrieve(q, { k: 5 });
  };
  const t1 = performance.now();
  await run();
  const searchMs = performance.now() - t1;
  if (editing) {
    const t2 = performance.now();
    const ids = [...index.persistedState().articles.keys()].slice(0, 140);
    const stored = index.persistedState().articles;
    for (const id of ids.slice(0, 100)) {
      const a = stored.get(id) as { title: string; category: string; subcategory?: string; tags: string[] };
      await index.upsertArticle({
        id,
        title: a.title,
        category: a.category,
        subcategory: a.subcategory,
        tags: a.tags,
        content: "# Redigeret\n\nRedigeret afsnit om klagefrister.\n",
      });
    }
    for (const id of ids.slice(100, 120)) await index.removeArticle(id);
    for (const a of added) await index.upsertArticle({ ...a, id: `new-${a.id}` });
    edits = performance.now() - t2;
    await run();
  }
  // search() each query once (a text no call used before) after a warm-up pass, as bench:search times it, over
  // the restored index
  const times: number[] = [];
  for (const q of QUERIES) index.search(q, { limit: 10 }); // warm-up pass, as bench:search's timeEach
  for (let r = 0; r < 25; r++) {
    for (const q of QUERIES) {
      const c0 = process.cpuUsage();
      index.search(freshText(q), { limit: 10 });
      const c = process.cpuUsage(c0);
      times.push((c.user + c.system) / 1000);
    }
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) =>
    times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(2);
  const i = index as unknown as Internals;
  const total = heap() - before;
  const mem = process.memoryUsage();
  const rows: [string, string][] = [];
  rows.push(["heapUsed: the index (restored or built, searched)", mb(total)]);
  rows.push(["arrayBuffers (outside the heap: ints, vectors)", mb(mem.arrayBuffers)]);
  for (const [name, db] of [
    ["articleDb", i.articleDb],
    ["passageDb", i.passageDb],
  ] as const) {
    const [n, opened, openedIds, unopened, unopenedIds] = postings(db);
    rows.push([
      `${name}: radix nodes; posting Sets/their ids; Int32Array-backed/their ids`,
      `${n}; ${opened}/${openedIds}; ${unopened}/${unopenedIds}`,
    ]);
  }
  // tear down, largest suspects first; each line: what dropping it freed
  let last = heap();
  const drop = (label: string, fn: () => void) => {
    fn();
    const now = heap();
    rows.push([label, mb(last - now)]);
    last = now;
  };
  const t = edits ? ` (edits ${edits.toFixed(0)} ms)` : "";
  rows.push([`search() each query once, CPU ms p50/p95 (n=${times.length})`, `${pct(50)} / ${pct(95)}`]);
  const cpu = (loadCpu.user + loadCpu.system) / 1000;
  rows.push([
    "time: restore or build (wall/CPU); searches; edits",
    `${loadMs.toFixed(0)}/${cpu.toFixed(0)} ms; ${searchMs.toFixed(0)} ms${t}`,
  ]);
  drop("caches (queries, term sets, snippet sources)", () => {
    i.queries = null;
    i.termSets = null;
    i.snippetSources = null;
  });
  for (const name of ["articleDb", "passageDb"] as const) {
    const db = i[name];
    const data = db.data.index as unknown as IndexData;
    drop(`${name}: opened posting Sets → Int32Array-backed (their excess)`, () => {
      for (const n of nodes(db)) {
        if (!compact(n.d) && n.d.size > 0) n.d = new PostingSet(Int32Array.from(n.d));
      }
    });
    drop(`${name}: radix trees (nodes, labels, words, posting sets)`, () => {
      for (const f of Object.keys(data.indexes)) data.indexes[f].node = { d: new Set(), c: new Map() };
    });
    drop(`${name}: field lengths, token occurrences, frequencies`, () => {
      data.fieldLengths = {};
      data.tokenOccurrences = {};
      data.frequencies = {};
    });
    drop(`${name}: documents put back, id store`, () => {
      (db as unknown as { data: { docs: unknown } }).data.docs = null;
      (db as unknown as { internalDocumentIDStore: unknown }).internalDocumentIDStore = null;
    });
    i[name] = null as never;
  }
  drop("passages map (StoredPassage objects)", () => {
    i.passages = null as never;
  });
  drop("articles map (StoredArticle, contents: the snapshot's text)", () => {
    i.articles = null as never;
  });
  drop("vocabulary", () => {
    i.vocabulary = null;
  });
  rows.push(["rest (index object, module state)", mb(last - before)]);
  process.stdout.write(`${JSON.stringify(rows)}\n`);
}

async function main(): Promise<void> {
  if (PHASE) return measure(PHASE);
  await ensureSnapshot();
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
  console.log(`search index heap, ${SIZE} articles restored from ${FILE} or built; load ${load()}`);
  const table: Record<string, string[]> = {};
  for (const phase of PHASES) {
    const r = spawnSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), String(SIZE), phase],
      { encoding: "utf8", maxBuffer: 1 << 24 },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    const rows = JSON.parse(r.stdout.trim().split("\n").pop() ?? "[]") as [string, string][];
    for (const [k, v] of rows) table[k] = [...(table[k] ?? []), v];
  }
  const width = Math.max(...Object.keys(table).map((k) => k.length));
  console.log(`${"structure".padEnd(width)} | restored (MB) | after edits | built | built, after edits`);
  for (const [k, v] of Object.entries(table)) console.log(`${k.padEnd(width)} | ${v.join(" | ")}`);
  console.log(`load ${load()}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await main();
  if (!fs.existsSync(FILE)) process.exitCode = 1;
}
