/**
 * What the gate tools (fit-gate.ts, gate-explore.ts) share: the questions they fit and report on, by group, and
 * the logistic model they fit. Not part of the product.
 */
import { isHeldOut, readDataset, setFile } from "./dataset";

/** the tuned set whole, the fresh set's calibration (even ids) and held-out (odd ids) halves */
export type GateGroup = "tuned" | "fresh even" | "fresh odd";

export interface GateQuestion {
  id: string;
  question: string;
  /** 1: on-topic (should pass the gate), 0: off-topic */
  y: number;
  group: GateGroup;
}

/** Every question of the tuned and the fresh set, on-topic first, with its group. */
export function gateQuestions(): GateQuestion[] {
  const out: GateQuestion[] = [];
  for (const set of [undefined, "fresh"]) {
    const ds = readDataset(setFile(set));
    const group = (id: string): GateGroup => (!set ? "tuned" : isHeldOut(id) ? "fresh odd" : "fresh even");
    for (const q of ds.onTopic) out.push({ id: q.id, question: q.question, y: 1, group: group(q.id) });
    for (const q of ds.offTopic) out.push({ id: q.id, question: q.question, y: 0, group: group(q.id) });
  }
  return out;
}

/** The model's probability for features `x` (x[0] is the intercept's 1). */
export const logistic = (w: readonly number[], x: readonly number[]): number =>
  1 / (1 + Math.exp(-x.reduce((z, v, i) => z + w[i] * v, 0)));

/**
 * Logistic regression by gradient descent, L2 on every weight but the intercept; `balanced` weighs both classes
 * the same.
 */
export function fitLogistic(
  train: readonly { x: number[]; y: number }[],
  { l2 = 0.01, balanced = false, steps = 20000, rate = 0.1 } = {},
): number[] {
  const d = train[0].x.length;
  const w = new Array(d).fill(0);
  const pos = train.filter((e) => e.y === 1).length;
  const neg = train.length - pos;
  const weight = (y: number) =>
    !balanced ? 1 : y === 1 ? train.length / (2 * pos) : train.length / (2 * neg);
  for (let s = 0; s < steps; s++) {
    const g = new Array(d).fill(0);
    for (const e of train) {
      const p = logistic(w, e.x);
      for (let i = 0; i < d; i++) g[i] += weight(e.y) * (p - e.y) * e.x[i];
    }
    for (let i = 0; i < d; i++) w[i] -= rate * (g[i] / train.length + (i > 0 ? l2 * w[i] : 0));
  }
  return w;
}
