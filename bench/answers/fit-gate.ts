/**
 * Refit the relevance gate's logistic model (search.passage-relevance.ts GATE_WEIGHTS) on the calibration half
 * (even-numbered questions) and report both halves: `npx tsx bench/answers/fit-gate.ts`. One example per question:
 * the retrieved passage that covers it best, labelled covered (on-topic) or not (off-topic); `BAL=1` weighs both
 * classes the same, `L2=` sets the penalty (0.01). Prints the weights to paste and, per half, false "not covered" / false
 * "covered" at GATE_PROBABILITY. Not part of the product.
 */
import { DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { GATE_PROBABILITY, gateFeatures } from "../../api/src/search/search.passage-relevance";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { dataset, isHeldOut } from "./dataset";

const index = new KnowledgeIndex();
await index.rebuildFrom(await sampleArticles());
type Example = { x: number[]; y: number; half: number; id: string };
const examples: Example[] = [];
const all = [
  ...dataset.onTopic.map((q, i) => ({ q: q.question, id: q.id, y: 1, i })),
  ...dataset.offTopic.map((q, i) => ({ q: q.question, id: q.id, y: 0, i })),
];
for (const e of all) {
  const res = await index.retrieve(e.q, { k: DEFAULT_RETRIEVE_K });
  const best = [...res.passages].sort((a, b) => (b.coverage ?? 0) - (a.coverage ?? 0))[0];
  if (!best) {
    examples.push({
      x: gateFeatures({ coverage: 0 } as never, 0),
      y: e.y,
      half: isHeldOut(e.id) ? 1 : 0,
      id: e.id,
    });
    continue;
  }
  const runnerUp = Math.max(
    0,
    ...res.passages.filter((p) => p.articleId !== best.articleId).map((p) => p.coverage ?? 0),
  );
  examples.push({ x: gateFeatures(best, runnerUp), y: e.y, half: isHeldOut(e.id) ? 1 : 0, id: e.id });
}

function fitModel(train: Example[], l2 = 0.01, steps = 20000, rate = 0.1): number[] {
  const d = train[0].x.length;
  const w = new Array(d).fill(0);
  const pos = train.filter((e) => e.y === 1).length;
  const neg = train.length - pos;
  const bal = process.env.BAL === "1";
  const weight = (e: Example) => (!bal ? 1 : e.y === 1 ? train.length / (2 * pos) : train.length / (2 * neg));
  for (let s = 0; s < steps; s++) {
    const g = new Array(d).fill(0);
    for (const e of train) {
      let z = 0;
      for (let i = 0; i < d; i++) z += w[i] * e.x[i];
      const p = 1 / (1 + Math.exp(-z));
      for (let i = 0; i < d; i++) g[i] += weight(e) * (p - e.y) * e.x[i];
    }
    for (let i = 0; i < d; i++) w[i] -= rate * (g[i] / train.length + (i > 0 ? l2 * w[i] : 0));
  }
  return w;
}

const prob = (w: number[], x: number[]) => 1 / (1 + Math.exp(-x.reduce((z, v, i) => z + w[i] * v, 0)));
function report(w: number[], label: string) {
  for (const half of [0, 1]) {
    const ex = examples.filter((e) => e.half === half);
    const on = ex.filter((e) => e.y === 1);
    const off = ex.filter((e) => e.y === 0);
    const fnc = on.filter((e) => prob(w, e.x) < GATE_PROBABILITY);
    const fc = off.filter((e) => prob(w, e.x) >= GATE_PROBABILITY);
    console.log(
      `${label} ${half === 0 ? "even" : "odd "}: false not-covered ${((100 * fnc.length) / on.length).toFixed(1)}% ` +
        `false covered ${((100 * fc.length) / off.length).toFixed(1)}%  [${fc.map((e) => e.id).join(" ")}]`,
    );
  }
}
const l2 = Number(process.env.L2 ?? 0.01);
const w = fitModel(
  examples.filter((e) => e.half === 0),
  l2,
);
console.log("weights", JSON.stringify(w.map((v) => Number(v.toFixed(3)))));
report(w, "fitted");
const current = (await import("../../api/src/search/search.passage-relevance")).GATE_WEIGHTS;
report([...current], "current");
