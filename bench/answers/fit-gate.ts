/**
 * Refit the relevance gate's logistic model (search.passage-relevance.ts GATE_WEIGHTS) on the calibration data (the
 * tuned set, questions.json, the fresh set's even ids and, since round 18, the calib4 set; `CALIB=old` without
 * calib4) and report every group, the held-out fresh odd as figures only:
 * `npx tsx bench/answers/fit-gate.ts`. One example per question: the retrieved passage that covers it best,
 * labelled covered (on-topic) or not (off-topic); a question no passage covers at all is declined whatever the weights
 * and is no example (it only pulled the intercept down); `BAL=1` weighs both classes the same, `L2=` sets the penalty
 * (0.01), `P=` the probability to report at (GATE_PROBABILITY), `SWEEP=1` also prints the current model's curve
 * (its intercept shifted). Prints the weights to paste and, per group, false "not covered" / false "covered" for the
 * fitted and the current model (ids of false "covered" only for calibration questions). Not part of the product.
 */
import { DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { GATE_PROBABILITY, gateFeatures } from "../../api/src/search/search.passage-relevance";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import {
  fitLogistic,
  type GateGroup,
  gateQuestions,
  isCalibration,
  logistic,
  REPORT_GROUPS,
} from "./gate-data";

const index = new KnowledgeIndex();
await index.rebuildFrom(await sampleArticles());
type Example = { x: number[]; y: number; group: GateGroup; id: string };
const examples: Example[] = [];
for (const e of gateQuestions()) {
  const res = await index.retrieve(e.question, { k: DEFAULT_RETRIEVE_K });
  // the evidence that decides whether the question is covered (a compound's parts only together)
  const passages = res.passages.map((p) => (p.compoundsWhole ? { ...p, ...p.compoundsWhole } : p));
  const best = [...passages].sort((a, b) => (b.coverage ?? 0) - (a.coverage ?? 0))[0];
  const runnerUp = best
    ? Math.max(0, ...passages.filter((p) => p.articleId !== best.articleId).map((p) => p.coverage ?? 0))
    : 0;
  if (!(best?.coverage && best.coverage > 0)) {
    // declined whatever the weights (relevanceOf is 0 without coverage): no example to fit, but counted
    examples.push({ x: [], y: e.y, group: e.group, id: e.id });
    continue;
  }
  examples.push({ x: gateFeatures(best, runnerUp), y: e.y, group: e.group, id: e.id });
}

const at = Number(process.env.P ?? GATE_PROBABILITY);
const prob = (w: readonly number[], x: readonly number[]) => (x.length === 0 ? 0 : logistic(w, x));
function report(w: number[], label: string) {
  for (const group of REPORT_GROUPS) {
    const ex = examples.filter((e) => e.group === group);
    const on = ex.filter((e) => e.y === 1);
    const off = ex.filter((e) => e.y === 0);
    const fnc = on.filter((e) => prob(w, e.x) < at);
    const fc = off.filter((e) => prob(w, e.x) >= at);
    const ids = !isCalibration(group) ? "" : `  [${fc.map((e) => e.id).join(" ")}]`;
    console.log(
      `${label} ${group.padEnd(10)}: false not-covered ${((100 * fnc.length) / on.length).toFixed(1)}% ` +
        `false covered ${((100 * fc.length) / off.length).toFixed(1)}%${ids}`,
    );
  }
}
const l2 = Number(process.env.L2 ?? 0.01);
const w = fitLogistic(
  examples.filter((e) => isCalibration(e.group) && e.x.length > 0),
  { l2, balanced: process.env.BAL === "1" },
);
console.log("weights", JSON.stringify(w.map((v) => Number(v.toFixed(3)))));
report(w, "fitted ");
const current = (await import("../../api/src/search/search.passage-relevance")).GATE_WEIGHTS;
report([...current], "current");
if (process.env.SWEEP) {
  // each model's curve: its intercept shifted by -d (a stricter gate for d > 0), per group "false not-covered /
  // false covered" counts, and the calibration groups' sum: two models compare at the same calibration fnc
  for (const [label, base] of [
    ["current", [...current]],
    ["fitted ", w],
  ] as const) {
    for (let d = -1; d <= 1.0001; d += 0.125) {
      const w2: number[] = [...base];
      w2[0] = base[0] - d;
      const counts = (g: GateGroup) => {
        const ex = examples.filter((e) => e.group === g);
        return [
          ex.filter((e) => e.y === 1 && prob(w2, e.x) < at).length,
          ex.filter((e) => e.y === 0 && prob(w2, e.x) >= at).length,
        ];
      };
      const calib = REPORT_GROUPS.filter(isCalibration).map(counts);
      const sum = calib.reduce((a, c) => [a[0] + c[0], a[1] + c[1]], [0, 0]);
      const row = REPORT_GROUPS.map((g) => `${g} ${counts(g).join("/")}`);
      console.log(
        `${label} intercept ${d > 0 ? "-" : "+"}${Math.abs(d)}: calibration ${sum.join("/")}  ${row.join("  ")}`,
      );
    }
  }
}
