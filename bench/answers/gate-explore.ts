/**
 * Candidate evidence for the relevance gate, tried before it goes into the product: per question, the passage the
 * gate decides on (its highest model probability) with the gate's features (gateFeatures) plus candidate features
 * this script computes itself; the model refitted with the candidates named in FEATS on the calibration data (the
 * tuned set and the fresh set's even ids) and, per group, wrongly declined / off-topic passed at P−0.1, P, P+0.1.
 * `FEATS=headings,topical npx tsx bench/answers/gate-explore.ts` (no FEATS: the refit of the current features, the
 * baseline); `DUMP=1` prints each calibration question's candidate values. The held-out (odd) ids are read for
 * their aggregate counts only, never printed. Not part of the product; it reads the index's internals.
 *
 * Candidates (round 9, answers9-gate: none helped the calibration data by more than one question; see the notes):
 * - sentence: the question's coverage by the passage's best single sentence or list item (with its headings)
 * - headings: the coverage by the passage's headings (title and heading path)
 * - articleHeadings: the coverage by every heading of the passage's article (title, tags, section headings)
 * - topical: the coverage by question words that some article's heading holds (a topic word, not a generic verb)
 * - specific: the share by which the passage covers the question's most specific word (highest evidence IDF)
 * - danishUnknown: how many question words are Danish words nothing in the index reads
 * - lead: 1 when the passage's article is search's first
 * - proven: log1p of the evidence IDF the passage covers (a word covered by a related term proving what that term
 *   proves); `REPLACE_MATCHED=1` puts it in place of the gate's log1p(matched IDF) instead of adding it
 */
import { DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { analyse } from "../../api/src/search/search.analyzer";
import { coverageOf } from "../../api/src/search/search.coverage";
import { isDanishWord } from "../../api/src/search/search.danish";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import {
  GATE_PROBABILITY,
  gateFeatures,
  gateProbability,
} from "../../api/src/search/search.passage-relevance";
import type { QueryConcept } from "../../api/src/search/search.query";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import type { RetrievedPassage } from "../../api/src/search/search.types";
import {
  CALIBRATION_GROUPS,
  fitLogistic,
  type GateGroup,
  gateQuestions,
  logistic,
  REPORT_GROUPS,
} from "./gate-data";

interface Example {
  id: string;
  y: number;
  group: GateGroup;
  base: number[] | null;
  candidates: Record<string, number>;
}

const articles = await sampleArticles();
const index = new KnowledgeIndex();
await index.rebuildFrom(articles);
// biome-ignore lint/suspicious/noExplicitAny: an exploration reads the index's internals
const priv = index as any;
const headingsOf = (a: (typeof articles)[number]) =>
  new Set(
    analyse(
      [a.title, ...(a.tags ?? []), ...[...a.content.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => m[1])].join(
        "\n",
      ),
    ),
  );
const articleHeadings = new Map(articles.map((a) => [a.id, headingsOf(a)]));
const anyHeading = new Set(articles.flatMap((a) => [...headingsOf(a)]));

const empty = new Set<string>();
const coverBy = (cs: readonly QueryConcept[], terms: Set<string>) =>
  coverageOf(cs, { all: terms, headings: empty }).coverage;

/** The candidate features of passage `p` for the analysed question's concepts `cs`. */
function candidates(p: RetrievedPassage, cs: QueryConcept[]): Record<string, number> {
  const sets = priv.passageTerms(p.id);
  let sentence = 0;
  for (const s of p.text.split(/(?<=[.!?:])\s+|\n+/))
    sentence = Math.max(sentence, coverBy(cs, new Set([...analyse(s), ...sets.headings])));
  let total = 0;
  let topical = 0;
  let proven = 0;
  for (const c of cs) {
    total += c.idf;
    proven += (c.evidenceIdf ?? c.idf) * coverBy([c], sets.all);
    if (c.terms.some((t) => anyHeading.has(t))) topical += c.idf * coverBy([c], sets.all);
  }
  const evidence = (c: QueryConcept) => c.evidenceIdf ?? c.idf;
  const specific = cs.reduce<QueryConcept | undefined>(
    (a, c) => (!a || evidence(c) > evidence(a) ? c : a),
    undefined,
  );
  return {
    sentence,
    headings: coverageOf(cs, sets).headings,
    articleHeadings: coverBy(cs, articleHeadings.get(p.articleId) ?? empty),
    topical: total > 0 ? topical / total : 0,
    specific: specific ? coverBy([specific], sets.all) : 0,
    danishUnknown: cs.filter((c) => c.terms.length === 0 && isDanishWord(c.word)).length,
    lead: p.articleRank === 1 ? 1 : 0,
    proven: Math.log1p(proven),
  };
}

const examples: Example[] = [];
for (const e of gateQuestions()) {
  const res = await index.retrieve(e.question, { k: DEFAULT_RETRIEVE_K });
  const bestOf = new Map<string, number>();
  for (const p of res.passages)
    bestOf.set(p.articleId, Math.max(bestOf.get(p.articleId) ?? 0, p.coverage ?? 0));
  const runnerUp = (p: RetrievedPassage) =>
    Math.max(0, ...[...bestOf].filter(([id]) => id !== p.articleId).map(([, c]) => c));
  let best: RetrievedPassage | undefined;
  let bestProbability = -1;
  for (const p of res.passages) {
    if (!(p.coverage && p.coverage > 0)) continue;
    const probability = gateProbability(p, runnerUp(p));
    if (probability > bestProbability) [best, bestProbability] = [p, probability];
  }
  const concepts: QueryConcept[] = priv.analyse(e.question).concepts;
  examples.push({
    id: e.id,
    y: e.y,
    group: e.group,
    base: best ? gateFeatures(best, runnerUp(best)) : null,
    candidates: best ? { ...candidates(best, concepts), probability: bestProbability } : {},
  });
}

if (process.env.DUMP)
  for (const e of examples.filter((x) => CALIBRATION_GROUPS.includes(x.group)))
    console.log(
      e.id,
      e.y,
      Object.entries(e.candidates)
        .map(([k, v]) => `${k}=${v.toFixed(2)}`)
        .join(" "),
    );

const feats = (process.env.FEATS ?? "").split(",").filter(Boolean);
const replace = process.env.REPLACE_MATCHED === "1";
const xOf = (e: Example) =>
  e.base
    ? [
        ...e.base.map((v, i) => (replace && i === 2 ? (e.candidates.proven ?? 0) : v)),
        ...feats.map((f) => e.candidates[f] ?? 0),
      ]
    : null;

const train = examples
  .filter((e) => CALIBRATION_GROUPS.includes(e.group) && e.base)
  .map((e) => ({ x: xOf(e) as number[], y: e.y }));
const w = fitLogistic(train, { l2: Number(process.env.L2 ?? 0.01) });
const probability = (e: Example) => {
  const x = xOf(e);
  return x ? logistic(w, x) : 0;
};
console.log(`candidates [${feats.join(",")}] weights ${JSON.stringify(w.map((v) => Number(v.toFixed(3))))}`);
for (const at of [GATE_PROBABILITY - 0.1, GATE_PROBABILITY, GATE_PROBABILITY + 0.1]) {
  const row = REPORT_GROUPS.map((g) => {
    const ex = examples.filter((e) => e.group === g);
    const declined = ex.filter((e) => e.y === 1 && probability(e) < at).length;
    const passed = ex.filter((e) => e.y === 0 && probability(e) >= at).length;
    return `${g} ${declined}/${passed}`;
  });
  console.log(`P=${at.toFixed(2)} wrongly declined/off-topic passed: ${row.join("  ")}`);
}
