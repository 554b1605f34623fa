/**
 * Cross-validated choice of the relevance gate: `npx tsx bench/answers/gate-cv.ts`. The gate's fitted figures
 * (false "not covered" on the tuned set 1 %, fresh even 0.8 %) say little about questions it was not fitted to
 * (fresh odd 5.8 %, staff3 5.9 %); this scores candidate gates by what they do on questions left out of their fit.
 *
 * Per calibration question (the tuned set, the fresh set's even ids and the calib4 set; `CALIB=old`: without calib4,
 * as rounds 13–17 fitted), the retrieved passages and their gate
 * evidence (coverage, matched and uncovered IDF, words covered, the margin over other articles). Each candidate is a
 * feature map over that evidence; a logistic model is fitted on k−1 folds (folds by question, stratified by on-/off-
 * topic, repeated with REPEATS shuffles), its probability threshold chosen on those folds (the lowest balanced error:
 * false "not covered" rate + false "covered" rate), and the left-out fold scored as the product decides: a question
 * passes when any passage with coverage reaches the threshold. Prints, per candidate, the mean and spread (sd over
 * folds) of the left-out folds' false "not covered" / false "covered", their balanced error (the choice), and the
 * candidate fitted on all calibration data at its chosen threshold: the figures where it was fitted and, as counts
 * only, on the held-out questions (fresh odd, staff3; never listed one by one).
 *
 * `VARIANTS="base;base,uncommon=0.6,matchcommon=0.3,commonminidf=2.8"`: `base…` the product's gate view with a word's
 * commonness in Danish at large taking λ off its telling weight (commonness.ts: `uncommon` what lacking it counts,
 * `matchcommon` what covering it counts, `commonminidf` only words at least that telling among the articles).
 * `VARIANTS="base;lexicon=0;compound=0.5,head=0"`: the gate reads a related term's partial cover w (0 < w < 1) of
 * the kinds named as w^γ (kindOf: lexicon 0.5 / a pair's 0.4, head: an indexed compound ending in the word 0.6,
 * compound: a part of a compound the index lacks and its related terms, thesaurus 0.4; `all=` every kind); γ = 1
 * as ranking reads it, γ = 0 any such evidence covers the word fully; `base` (the retrieval's own evidence, the
 * product's gateConcepts) first; `ranking` (no kind named): every term as ranking reads it. `K=` folds (10),
 * `REPEATS=` (5), `ONLY=name,…` candidates by name, `FIXED_P=0.6` one threshold for all (no choice), `EMPTY=1` a
 * question no passage covers is a training example too (as fit-gate.ts did before round 13: it is declined
 * whatever the weights, and only pulls the intercept down), `PART_LEXICON=1` a compound part's lexicon terms are of
 * kind lexicon, not compound. Also prints, per group, how many on-topic questions no passage covers at all or covers
 * less than half (the evidence the gate has, whatever its weights). Not part of the product; it reads the index's internals.
 *
 * Round 15 (the classes of bench/answers/gate-errors.ts) added candidate evidence, each as a feature beside today's
 * six: the best single sentence's coverage (with and without the passage's headings) and its share of the passage's,
 * the headings' coverage, the share covered by words the article has in another section (or 3+), the passage's
 * article rank, how many articles cover half as much (rivals), the share of the matched IDF one word carries, the
 * share of words the index never saw. `AGG=bestcov` decides on the best-covering passage only, `AGG=top3` on the
 * first 3 retrieved (default: any of the k). The candidates that needed product code (the dictionary's word classes:
 * verbs weighing less, nouns' coverage; the kind of thing asked for) were measured at commit 1c3112d and removed with
 * that code (notes: answers15-gate).
 */
import { DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { sentences } from "../../api/src/chat/answer/evidence";
import { analyse } from "../../api/src/search/search.analyzer";
import { coverageOf, gateConcepts } from "../../api/src/search/search.coverage";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { GATE_PROBABILITY, GATE_WEIGHTS, gateFeatures } from "../../api/src/search/search.passage-relevance";
import type { QueryConcept } from "../../api/src/search/search.query";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import type { RetrievedPassage } from "../../api/src/search/search.types";
import { type GateCommonness, NO_COMMONNESS, withCommonness } from "./commonness";
import { isHeldOut, readDataset, setFile } from "./dataset";
import { CALIBRATION_GROUPS, fitLogistic, type GateGroup, logistic } from "./gate-data";

/** The gate's evidence for one passage (the fields of gateFields, and the best coverage of another article). */
interface Evidence {
  coverage: number;
  matched: number;
  words: number;
  ofWords: number;
  uncovered: number;
  runnerUp: number;
  /** the best single sentence's coverage, read with the passage's headings (title, section headings) / alone */
  sentence: number;
  sentenceAlone: number;
  /** the share of the question the passage's title and headings cover (Coverage.headings) */
  headings: number;
  /** the share of the question the passage covers by words its article also has in another section */
  recurring: number;
  /** … by words in 3+ of its article's sections (or all of them) */
  recurring3: number;
  /** where the passage's article ranks for the question by its sections (RetrievedPassage.articleRank; 99: none) */
  articleRank: number;
  /** how many of the retrieved passages' articles cover at least half as much as this passage (itself included) */
  rivals: number;
  /** the share of the matched IDF that one word carries (1: a single word matched) */
  topShare: number;
  /** the share of the question's words the index has never seen (no term of any kind stands for it) */
  unseen: number;
}
type Group = GateGroup | "staff3";
interface Question {
  id: string;
  y: number;
  group: Group;
  /** per variant (by name), the passages' evidence */
  passages: Map<string, Evidence[]>;
}

/** A variant of the gate's view of partial evidence: per kind of related term, γ (w read as w^γ; absent: 1). */
type Variant = { name: string; gamma: Partial<Record<Kind, number>>; common: GateCommonness };
type Kind = "lexicon" | "head" | "compound" | "thesaurus";
const KINDS: Kind[] = ["lexicon", "head", "compound", "thesaurus"];
const variants: Variant[] = (process.env.VARIANTS ?? "base").split(";").map((v) => {
  const gamma: Partial<Record<Kind, number>> = {};
  const common: GateCommonness = { ...NO_COMMONNESS };
  for (const kv of v.split(",")) {
    const [k, g] = kv.split("=");
    if (k === "all") for (const kind of KINDS) gamma[kind] = Number(g);
    else if ((KINDS as string[]).includes(k)) gamma[k as Kind] = Number(g);
    else if (k === "uncommon") common.uncovered = Number(g);
    else if (k === "matchcommon") common.matched = Number(g);
    else if (k === "commonminidf") common.minIdf = Number(g);
    else if (k !== "base" && k !== "ranking") throw new Error(`VARIANTS: unknown kind ${k}`);
  }
  return { name: v, gamma, common };
});
const K = Number(process.env.K ?? 10);
const REPEATS = Number(process.env.REPEATS ?? 5);

/**
 * The kind of a concept's partial term (weight below 1), told from how the query was built (search.query.ts): a
 * thesaurus word (QueryConcept.loose); the curated lexicon's (QueryConcept.curated: 0.5, a pair's 0.4, less for a
 * compound part's); any other term of a part of a compound the index lacks (the part's concept is no word of the
 * question: 'anmeldelse' + 'frist' of 'anmeldelsesfrist'); else an indexed compound ending in the word (0.6).
 */
function kindOf(c: QueryConcept, i: number, question: string): Kind {
  if (c.loose?.has(c.terms[i])) return "thesaurus";
  const word = c.word.toLowerCase();
  const own = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .includes(word);
  if (!own) return process.env.PART_LEXICON && c.curated?.has(c.terms[i]) ? "lexicon" : "compound";
  return c.curated?.has(c.terms[i]) ? "lexicon" : "head";
}

/**
 * The concepts as a variant reads them: `base` as the product's gate does (gateConcepts), else ranking's concepts
 * with each partial cover w read as w^γ of its kind (terms of weight 1 unchanged).
 */
const variantConcepts = (cs: readonly QueryConcept[], v: Variant, question: string): QueryConcept[] =>
  v.name.startsWith("base")
    ? withCommonness(gateConcepts(cs), v.common)
    : cs.map((c) => ({
        ...c,
        weights: c.weights.map((w, i) => (w > 0 && w < 1 ? w ** (v.gamma[kindOf(c, i, question)] ?? 1) : w)),
      }));

const index = new KnowledgeIndex();
await index.rebuildFrom(await sampleArticles());
// biome-ignore lint/suspicious/noExplicitAny: a diagnostic reads the index's internals
const priv = index as any;

const questions: Question[] = [];
for (const [set, file] of [
  ["tuned", undefined],
  ["fresh", "fresh"],
  ["calib4", "calib4"],
  ["staff3", "staff3"],
] as const) {
  const ds = readDataset(setFile(file));
  const group = (id: string): Group => (set === "fresh" ? (isHeldOut(id) ? "fresh odd" : "fresh even") : set);
  const all = [
    ...ds.onTopic.map((q) => ({ id: q.id, question: q.question, y: 1 })),
    ...ds.offTopic.map((q) => ({ id: q.id, question: q.question, y: 0 })),
  ];
  for (const q of all) {
    const res = await index.retrieve(q.question, { k: DEFAULT_RETRIEVE_K });
    const concepts: QueryConcept[] = priv.analyse(q.question).concepts;
    const passages = new Map<string, Evidence[]>();
    for (const v of variants) {
      const cs = variantConcepts(concepts, v, q.question);
      const covers = res.passages.map((p) => {
        const sets = priv.passageTerms(p.id);
        return sets ? coverageOf(cs, sets) : null;
      });
      const bestOf = new Map<string, number>();
      res.passages.forEach((p, i) => {
        bestOf.set(p.articleId, Math.max(bestOf.get(p.articleId) ?? 0, covers[i]?.coverage ?? 0));
      });
      const ev: Evidence[] = [];
      res.passages.forEach((p, i) => {
        const c = covers[i];
        if (!c || c.coverage <= 0) return;
        let runnerUp = 0;
        for (const [a, v] of bestOf) if (a !== p.articleId) runnerUp = Math.max(runnerUp, v);
        const headings: Set<string> = priv.passageTerms(p.id).headings;
        let sentence = 0;
        let sentenceAlone = 0;
        for (const text of sentences(p.text)) {
          const own = new Set(analyse(text));
          sentenceAlone = Math.max(sentenceAlone, coverageOf(cs, { all: own, headings: new Set() }).coverage);
          for (const h of headings) own.add(h);
          sentence = Math.max(sentence, coverageOf(cs, { all: own, headings }).coverage);
        }
        const sections: { all: Set<string>; headings: Set<string> }[] = priv.sectionTerms(p.articleId);
        const sets = priv.passageTerms(p.id);
        let recurring = 0;
        let recurring3 = 0;
        let total = 0;
        let top = 0;
        let sum = 0;
        for (const concept of cs) {
          const mine = coverageOf([concept], sets).coverage;
          top = Math.max(top, mine * concept.idf);
          sum += mine * concept.idf;
          total += concept.idf;
          if (mine <= 0) continue;
          const holding = sections.filter((t) => coverageOf([concept], t).coverage > 0).length;
          if (holding >= 2) recurring += concept.idf * mine;
          if (holding >= Math.min(3, sections.length)) recurring3 += concept.idf * mine;
        }
        ev.push({
          ...c,
          runnerUp,
          sentence,
          sentenceAlone,
          recurring: total > 0 ? recurring / total : 0,
          recurring3: total > 0 ? recurring3 / total : 0,
          articleRank: p.articleRank ?? 99,
          rivals: [...bestOf.values()].filter((v) => v >= c.coverage / 2).length,
          topShare: sum > 0 ? top / sum : 0,
          unseen:
            cs.length > 0
              ? cs.filter((x) => x.terms.length === 0 && x.prefixed.size === 0).length / cs.length
              : 0,
        });
      });
      if (v.name === "base")
        res.passages.forEach((p, i) => {
          // the recomputed evidence is the retrieval's own (a check that this script reads what the gate reads)
          if (covers[i] && Math.abs((covers[i]?.coverage ?? 0) - (p.coverage ?? 0)) > 1e-9)
            throw new Error(`coverage differs for ${q.id}`);
        });
      passages.set(v.name, ev);
    }
    questions.push({ id: q.id, y: q.y, group: group(q.id), passages });
  }
}

/** Candidate gates: a name and the features (after the intercept's 1) of a passage's evidence. */
const share = (e: Evidence) => (e.matched + e.uncovered > 0 ? e.matched / (e.matched + e.uncovered) : 0);
/** The product's features (gateFeatures, without the intercept's 1). */
const today = (e: Evidence): number[] =>
  gateFeatures(
    {
      coverage: e.coverage,
      matchedIdf: e.matched,
      matchedWords: e.words,
      questionWords: e.ofWords,
      uncoveredIdf: e.uncovered,
    } as RetrievedPassage,
    e.runnerUp,
  ).slice(1);
/** today's features without the one at `i` (0: coverage, 1: log matched, 2: log uncovered, 3: margin, …) */
const todayWithout = (i: number) => (e: Evidence) => today(e).filter((_, j) => j !== i);
const CANDIDATES: { name: string; x: (e: Evidence) => number[] }[] = [
  { name: "today (6 features)", x: today },
  { name: "today + unseen share", x: (e) => [...today(e), e.unseen] },
  { name: "today + top share", x: (e) => [...today(e), e.topShare] },
  { name: "today + top share × (1 − cov)", x: (e) => [...today(e), e.topShare * (1 - e.coverage)] },
  { name: "coverage", x: (e) => [e.coverage] },
  { name: "evidence share", x: (e) => [share(e)] },
  { name: "coverage, log uncovered", x: (e) => [e.coverage, Math.log1p(e.uncovered)] },
  { name: "share, log uncovered", x: (e) => [share(e), Math.log1p(e.uncovered)] },
  { name: "coverage, share", x: (e) => [e.coverage, share(e)] },
  {
    name: "cov, log matched, log uncov",
    x: (e) => [e.coverage, Math.log1p(e.matched), Math.log1p(e.uncovered)],
  },
  {
    name: "ratios: cov, share, words share",
    x: (e) => [e.coverage, share(e), e.ofWords > 0 ? e.words / e.ofWords : 0],
  },
  {
    name: "cov, share, log uncov",
    x: (e) => [e.coverage, share(e), Math.log1p(e.uncovered)],
  },
  { name: "today − margin", x: todayWithout(3) },
  { name: "today − uncovered words", x: todayWithout(5) },
  { name: "words, log uncovered", x: (e) => [Math.min(e.words, 3), Math.log1p(e.uncovered)] },
  {
    name: "cov, words, log uncovered",
    x: (e) => [e.coverage, Math.min(e.words, 3), Math.log1p(e.uncovered)],
  },
  {
    name: "share, words, log uncovered",
    x: (e) => [share(e), Math.min(e.words, 3), Math.log1p(e.uncovered)],
  },
  { name: "today + first article", x: (e) => [...today(e), e.articleRank === 1 ? 1 : 0] },
  { name: "today + 1/article rank", x: (e) => [...today(e), 1 / e.articleRank] },
  { name: "today + log rivals", x: (e) => [...today(e), Math.log(Math.max(1, e.rivals))] },
  { name: "today + recurring", x: (e) => [...today(e), e.recurring] },
  { name: "today + recurring3", x: (e) => [...today(e), e.recurring3] },
  { name: "today with cov→recurring", x: (e) => [e.recurring, ...today(e).slice(1)] },
  { name: "today + headings", x: (e) => [...today(e), e.headings] },
  { name: "today + any heading", x: (e) => [...today(e), e.headings > 0 ? 1 : 0] },
  { name: "today + headings share", x: (e) => [...today(e), e.coverage > 0 ? e.headings / e.coverage : 0] },
  { name: "today + sentence", x: (e) => [...today(e), e.sentence] },
  { name: "today + sentence alone", x: (e) => [...today(e), e.sentenceAlone] },
  {
    name: "today + sentence share",
    x: (e) => [...today(e), e.coverage > 0 ? e.sentence / e.coverage : 0],
  },
  { name: "today with cov→sentence", x: (e) => [e.sentence, ...today(e).slice(1)] },
  {
    name: "cov, log m, log u, words",
    x: (e) => [e.coverage, Math.log1p(e.matched), Math.log1p(e.uncovered), Math.min(e.words, 3)],
  },
];
const only = process.env.ONLY?.split(",");
const candidates = only ? CANDIDATES.filter((c) => only.some((o) => c.name.startsWith(o))) : CANDIDATES;

/** The best probability any passage of the question reaches (0 without a covering passage). */
const bestProbability = (w: number[], q: Question, gamma: string, x: (e: Evidence) => number[]) => {
  const ev = q.passages.get(gamma) ?? [];
  if (process.env.AGG === "bestcov") {
    // the passage the model was fitted on decides (the best-covering one)
    if (ev.length === 0) return 0;
    return logistic(w, [1, ...x(ev.reduce((a, b) => (b.coverage > a.coverage ? b : a)))]);
  }
  const top = process.env.AGG?.startsWith("top") ? ev.slice(0, Number(process.env.AGG.slice(3))) : ev;
  return Math.max(0, ...top.map((e) => logistic(w, [1, ...x(e)])));
};

/** The training example of a question: its best-covering passage (as fit-gate.ts), none without one. */
function example(q: Question, gamma: string, x: (e: Evidence) => number[]) {
  const ev = q.passages.get(gamma) ?? [];
  if (ev.length === 0)
    return process.env.EMPTY
      ? {
          x: [
            1,
            ...x({
              coverage: 0,
              matched: 0,
              words: 0,
              ofWords: 0,
              uncovered: 0,
              runnerUp: 0,
              sentence: 0,
              sentenceAlone: 0,
              headings: 0,
              recurring: 0,
              recurring3: 0,
              articleRank: 99,
              rivals: 0,
              topShare: 0,
              unseen: 0,
            }),
          ],
          y: q.y,
        }
      : null;
  const best = ev.reduce((a, b) => (b.coverage > a.coverage ? b : a));
  return { x: [1, ...x(best)], y: q.y };
}

interface Rates {
  fnc: number;
  fc: number;
  on: number;
  off: number;
  fncN: number;
  fcN: number;
}
function rates(probs: number[], ys: number[], at: number): Rates {
  let on = 0;
  let off = 0;
  let fncN = 0;
  let fcN = 0;
  probs.forEach((p, i) => {
    if (ys[i] === 1) {
      on++;
      if (p < at) fncN++;
    } else {
      off++;
      if (p >= at) fcN++;
    }
  });
  return { fnc: fncN / Math.max(1, on), fc: fcN / Math.max(1, off), on, off, fncN, fcN };
}

const THRESHOLDS = Array.from({ length: 17 }, (_, i) => 0.1 + i * 0.05);
/** The threshold with the lowest balanced error on `qs` (ties: the one nearest GATE_PROBABILITY). */
function chooseThreshold(probs: number[], ys: number[]): number {
  if (fixedP !== undefined) return fixedP;
  let best = GATE_PROBABILITY;
  let bestErr = Number.POSITIVE_INFINITY;
  for (const t of THRESHOLDS) {
    const r = rates(probs, ys, t);
    const err = r.fnc + r.fc;
    if (
      err < bestErr - 1e-12 ||
      (Math.abs(err - bestErr) < 1e-12 && Math.abs(t - GATE_PROBABILITY) < Math.abs(best - GATE_PROBABILITY))
    )
      [best, bestErr] = [t, err];
  }
  return best;
}

/** A seeded shuffle (mulberry32), so every candidate sees the same folds. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Stratified folds of the calibration questions: fold index per question id. */
function folds(qs: readonly Question[], seed: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const y of [0, 1]) {
    const ys = shuffled(
      qs.filter((q) => q.y === y),
      seed + y,
    );
    ys.forEach((q, i) => {
      out.set(q.id, i % K);
    });
  }
  return out;
}

for (const g of ["tuned", "fresh even", "calib4", "fresh odd", "staff3"] as const) {
  const on = questions.filter((q) => q.group === g && q.y === 1);
  const best = on.map((q) => Math.max(0, ...(q.passages.get(variants[0].name) ?? []).map((e) => e.coverage)));
  console.log(
    `${g.padEnd(10)} on-topic ${on.length}: no covering passage ${best.filter((c) => c === 0).length}, ` +
      `best coverage < 0.5 ${best.filter((c) => c < 0.5).length}, < 0.67 ${best.filter((c) => c < 0.67).length}`,
  );
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const pct = (x: number) => `${(100 * x).toFixed(1)}`;
const l2 = Number(process.env.L2 ?? 0.01);
const fixedP = process.env.FIXED_P ? Number(process.env.FIXED_P) : undefined;

const calibration = questions.filter((q) => (CALIBRATION_GROUPS as readonly Group[]).includes(q.group));

/**
 * Per candidate, the first variant's left-out balanced errors, fold by fold: every variant sees the same seeded
 * folds, so a later variant prints its paired difference (mean ± sd over folds, and sd/√K, the margin a difference
 * must exceed to be more than one fold's noise; repeats reuse the same questions, so K, not K × REPEATS).
 */
const firstBalanced = new Map<string, number[]>();

for (const { name: gamma } of variants) {
  console.log(
    `\nvariant ${gamma}  (K=${K}, ${REPEATS} repeats, L2=${l2}; calibration ${calibration.length} questions)`,
  );
  console.log(
    "candidate                        CV false-not-covered  CV false-covered   CV bal.err (errors per pass) | all-fit P  " +
      "tuned fnc/fc  fresh-even fnc/fc  calib4 fnc/fc | held out: fresh-odd fnc/fc  staff3 fnc/fc",
  );
  for (const cand of candidates) {
    const fncs: number[] = [];
    const fcs: number[] = [];
    let fncN = 0;
    let fcN = 0;
    for (let r = 0; r < REPEATS; r++) {
      const fold = folds(calibration, 1000 * (r + 1));
      for (let f = 0; f < K; f++) {
        const train = calibration.filter((q) => fold.get(q.id) !== f);
        const test = calibration.filter((q) => fold.get(q.id) === f);
        const ex = train.map((q) => example(q, gamma, cand.x)).filter((e) => e !== null);
        const w = fitLogistic(ex, { l2 });
        const at = chooseThreshold(
          train.map((q) => bestProbability(w, q, gamma, cand.x)),
          train.map((q) => q.y),
        );
        const rt = rates(
          test.map((q) => bestProbability(w, q, gamma, cand.x)),
          test.map((q) => q.y),
          at,
        );
        fncs.push(rt.fnc);
        fcs.push(rt.fc);
        fncN += rt.fncN / REPEATS;
        fcN += rt.fcN / REPEATS;
      }
    }
    const balanced = fncs.map((f, i) => (f + fcs[i]) / 2);
    const first = firstBalanced.get(cand.name);
    if (!first) firstBalanced.set(cand.name, balanced);
    const diffs = first ? balanced.map((b, i) => b - first[i]) : [];
    const ex = calibration.map((q) => example(q, gamma, cand.x)).filter((e) => e !== null);
    const w = fitLogistic(ex, { l2 });
    const at = chooseThreshold(
      calibration.map((q) => bestProbability(w, q, gamma, cand.x)),
      calibration.map((q) => q.y),
    );
    const groupFig = (g: Group) => {
      const qs = questions.filter((q) => q.group === g);
      const r = rates(
        qs.map((q) => bestProbability(w, q, gamma, cand.x)),
        qs.map((q) => q.y),
        at,
      );
      return `${r.fncN}/${r.on} ${r.fcN}/${r.off}`.padEnd(13);
    };
    console.log(
      `${cand.name.padEnd(32)} ${pct(mean(fncs)).padStart(5)} ± ${pct(sd(fncs)).padEnd(5)}       ` +
        `${pct(mean(fcs)).padStart(5)} ± ${pct(sd(fcs)).padEnd(5)}  ${pct((mean(fncs) + mean(fcs)) / 2).padStart(5)} ` +
        `(${fncN.toFixed(1)}+${fcN.toFixed(1)}) | ` +
        `${at.toFixed(2)}  ${groupFig("tuned")} ${groupFig("fresh even")} ${groupFig("calib4")} | ` +
        `${groupFig("fresh odd")} ${groupFig("staff3")}` +
        `  w=${JSON.stringify(w.map((v) => Number(v.toFixed(3))))}`,
    );
    if (first)
      console.log(
        `${"".padEnd(32)} paired bal.err vs ${variants[0].name}: ${pct(mean(diffs))} ± ${pct(sd(diffs))} over folds, ` +
          `margin sd/√K ${pct(sd(diffs) / Math.sqrt(K))} (base's own bal.err sd ${pct(sd(first))})`,
      );
  }
  if (gamma === "base") {
    // the product's gate (its weights and threshold, no refit): its figures per group
    const today = CANDIDATES[0];
    const row = (["tuned", "fresh even", "calib4", "fresh odd", "staff3"] as const).map((g) => {
      const qs = questions.filter((q) => q.group === g);
      const r = rates(
        qs.map((q) => bestProbability([...GATE_WEIGHTS], q, "base", today.x)),
        qs.map((q) => q.y),
        GATE_PROBABILITY,
      );
      return `${g} ${r.fncN}/${r.on} ${r.fcN}/${r.off}`;
    });
    console.log(`the product's gate (GATE_WEIGHTS at P ${GATE_PROBABILITY}, no refit): ${row.join("  ")}`);
  }
}
