/**
 * The relevance gate's errors on the calibration data, both ways, with the evidence behind each:
 * `npx tsx bench/answers/gate-errors.ts [--all] [--near 0.15]`. Calibration only (the tuned set, the fresh set's
 * even ids, the calib4, calib5, calib6, calib7 and calib8 sets; held-out ids are never read or printed). Per question the product decides on (relevances():
 * a question passes when any retrieved passage reaches the chat's 0.25), it prints the deciding passage's gate
 * features and, per concept of the question, how that passage covers it (own word, a compound starting with it,
 * the curated lexicon, the thesaurus, a compound's head or part), the articles holding the word, and the evidence's
 * spread: the best single sentence's coverage (with its section's headings) against the passage's; `da=` the
 * paragraphs of general Danish holding the word, and its commonness (danish-frequency.ts). `--all`: every
 * calibration question, not just the errors; `--near d`: also those within d of the threshold. Not part of the
 * product; it reads the index's internals.
 */
import { DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { relevances } from "../../api/src/knowledge/knowledge.retrieval";
import { analyse } from "../../api/src/search/search.analyzer";
import { coverageOf, gateConcepts } from "../../api/src/search/search.coverage";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { gateFeatures, gateProbability } from "../../api/src/search/search.passage-relevance";
import type { QueryConcept } from "../../api/src/search/search.query";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { commonness, generalParagraphs } from "./danish-frequency";
import { mayInspect, readDataset, setFile } from "./dataset";
import { CALIBRATION_SETS } from "./gate-data";

const THRESHOLD = 0.25;
const all = process.argv.includes("--all");
const nearAt = process.argv.indexOf("--near");
const near = nearAt > 0 ? Number(process.argv[nearAt + 1]) : 0;

const index = new KnowledgeIndex();
await index.rebuildFrom(await sampleArticles());
// biome-ignore lint/suspicious/noExplicitAny: a diagnostic reads the index's internals
const priv = index as any;
const vocab = priv.vocabulary;
const N: number = vocab.articles;

/** How a passage's terms cover a concept: the kind of the best covering term. */
function coverKind(c: QueryConcept, own: Set<string>): string {
  let best = 0;
  let kind = "-";
  c.terms.forEach((t, i) => {
    if (!own.has(t)) return;
    const w = c.weights[i] ?? 1;
    if (w <= best) return;
    best = w;
    kind = c.loose?.has(t) ? "thes" : c.curated?.has(t) ? "lex" : w >= 1 ? "own" : "part/head";
  });
  if (best < 1) for (const t of c.prefixed) if (own.has(t)) return best > 0.99 ? kind : "prefix";
  return kind;
}

const fmt = (x: number | undefined) => (x ?? 0).toFixed(2);
/** the errors by class (what carried a false "covered", what held back a false "not covered"), with their ids */
const classes = new Map<string, string[]>();
const tally = (cls: string, id: string) => classes.set(cls, [...(classes.get(cls) ?? []), id]);
/** A word as telling as one at most this many articles hold counts as rare (of the sample's 26: df ≤ 3). */
const RARE_DF = 3;
/**
 * The class of a gate error from the deciding passage's cover of each concept: for a false "covered", the kind
 * of evidence that carried it (a related term, a compound, or own words only, rare or common) and whether a
 * telling word of the question is left uncovered; for a false "not covered", what the passage lacks.
 */
function errorClass(on: boolean, concepts: QueryConcept[], sets: { all: Set<string> }): string {
  const covered = concepts.filter(
    (c) => coverageOf([c], { all: sets.all, headings: new Set() }).coverage > 0,
  );
  const uncovered = concepts.filter((c) => !covered.includes(c));
  const kinds = new Set(covered.map((c) => coverKind(c, sets.all)));
  const df = (c: QueryConcept) => (c.terms.length ? vocab.articlesWith(c.terms[0]) : 0);
  const telling = (c: QueryConcept) => (c.evidenceIdf ?? c.idf) >= 2.5;
  if (!on) {
    const carried = kinds.has("lex")
      ? "a lexicon term covers a word"
      : kinds.has("thes")
        ? "a thesaurus word covers a word"
        : kinds.has("prefix") || kinds.has("part/head")
          ? "a compound covers a word"
          : covered.some((c) => df(c) > 0 && df(c) <= RARE_DF)
            ? "own words, a rare one matched"
            : "own words, all common";
    const gap = uncovered.some(telling) ? "telling word uncovered" : "no telling word uncovered";
    return `FALSE-COVERED: ${carried}; ${gap}`;
  }
  const absent = uncovered.filter((c) => df(c) === 0 && !c.unplaced && telling(c));
  if (absent.length > 0) return "FALSE-NOT-COVERED: a word no article has, uncovered";
  if (uncovered.some(telling)) return "FALSE-NOT-COVERED: a telling word other articles have, uncovered";
  if ([...kinds].some((k) => k !== "own"))
    return "FALSE-NOT-COVERED: covered only by related terms or compounds";
  return "FALSE-NOT-COVERED: every word covered, weak words";
}
for (const set of CALIBRATION_SETS) {
  const ds = readDataset(setFile(set));
  const qs = [
    ...ds.onTopic.map((q) => ({ id: q.id, question: q.question, on: true, tag: q.kind })),
    ...ds.offTopic.map((q) => ({ id: q.id, question: q.question, on: false, tag: q.group })),
  ].filter((q) => mayInspect(q.id));
  for (const q of qs) {
    const res = await index.retrieve(q.question, { k: DEFAULT_RETRIEVE_K });
    const rel = relevances(res);
    const best = Math.max(0, ...rel);
    const pass = best >= THRESHOLD;
    const error = pass !== q.on;
    if (!all && !error && Math.abs(best - THRESHOLD) > near) continue;
    // the view that decides whether the question is covered (a compound's parts only together)
    const concepts: QueryConcept[] = gateConcepts(priv.analyse(q.question).concepts, undefined, true);
    const articles = new Set(res.passages.map((x) => x.articleId));
    const bestOf = new Map<string, number>();
    for (const x of res.passages)
      bestOf.set(x.articleId, Math.max(bestOf.get(x.articleId) ?? 0, x.coverage ?? 0));
    const runnerUpOf = (articleId: string) =>
      Math.max(0, ...[...bestOf].filter(([a]) => a !== articleId).map(([, c]) => c));
    // the deciding passage: the one the gate's model rates highest (relevances() lifts search's lead article to
    // the best relevance, so its order does not tell which passage carried it)
    const probs = res.passages.map((x) =>
      (x.coverage ?? 0) > 0 ? gateProbability(x, runnerUpOf(x.articleId)) : 0,
    );
    const p = res.passages[probs.indexOf(Math.max(0, ...probs))];
    console.log(
      `\n${error ? (q.on ? "FALSE-NOT-COVERED" : "FALSE-COVERED") : "ok"} ${q.id} [${q.on ? "on" : "off"} ${q.tag}] ` +
        `rel=${best.toFixed(3)}  ${q.question}`,
    );
    if (!p) {
      console.log("  (no passage)");
      if (error) tally(q.on ? "FALSE-NOT-COVERED: no passage covers any word" : "FALSE-COVERED: ?", q.id);
      continue;
    }
    const runnerUp = runnerUpOf(p.articleId);
    const f = gateFeatures(p, runnerUp);
    const sets = priv.passageTerms(p.id);
    if (error) tally(errorClass(q.on, concepts, sets), q.id);
    const sentences = p.text.split(/(?<=[.!?:])\s+|\n+/).filter((s) => s.trim());
    let bestSentence = 0;
    let bestSentenceText = "";
    for (const s of sentences) {
      const own = new Set([...analyse(s), ...sets.headings]);
      const c = coverageOf(concepts, { all: own, headings: sets.headings }).coverage;
      if (c > bestSentence) [bestSentence, bestSentenceText] = [c, s];
    }
    console.log(
      `  -> ${p.articleId} / ${p.headingPath?.join(" > ") ?? ""}: cov=${fmt(f[1])} logM=${fmt(f[2])} logU=${fmt(f[3])} ` +
        `p=${fmt(gateProbability(p, runnerUp))} margin=${fmt(f[4])} words=${fmt(f[5])} uncovWords=${fmt(f[6])} | best sentence cov=${fmt(bestSentence)} ` +
        `articles retrieved=${articles.size}`,
    );
    console.log(`     sentence: ${bestSentenceText.slice(0, 160)}`);
    for (const c of concepts) {
      const df = c.terms.length ? vocab.articlesWith(c.terms[0]) : 0;
      const one = coverageOf([c], sets).coverage;
      console.log(
        `    ${c.word.padEnd(20)} idf=${fmt(c.idf)} ev=${fmt(c.evidenceIdf ?? c.idf)} df=${df}/${N} ` +
          `da=${generalParagraphs(c.word)} (${fmt(commonness(c.word))}) ` +
          `cov=${fmt(one)} by=${coverKind(c, sets.all)}${c.unplaced ? " unplaced" : ""}` +
          `${c.loose ? ` thes=${[...c.loose].slice(0, 4).join(",")}` : ""} [${c.terms.slice(0, 5).join(",")}]`,
      );
    }
  }
}
console.log("\nErrors by class (count, ids)");
for (const [cls, ids] of [...classes].sort())
  console.log(`${String(ids.length).padStart(3)}  ${cls}: ${ids.join(" ")}`);
