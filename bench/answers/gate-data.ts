/**
 * What the gate tools (fit-gate.ts, gate-explore.ts) share: the questions they fit and report on, by group, and
 * the logistic model they fit. Not part of the product.
 */
import { isHeldOut, readDataset, setFile } from "./dataset";

/**
 * the tuned set whole, the fresh set's calibration (even ids) and held-out (odd ids) halves, and the calib4 set
 * whole (round 18: 185 on-topic + 152 off-topic questions written for calibration only, so the gate's off-topic
 * operating point rests on more than the 81 off-topic questions of tuned + fresh even)
 */
export type GateGroup =
  | "tuned"
  | "fresh even"
  | "fresh odd"
  | "calib4"
  | "calib5"
  | "calib6"
  | "calib7"
  | "calib8";

/**
 * the groups the gate is fitted and cross-validated on; `CALIB=old` the rounds 13–17 data (tuned + fresh even);
 * `CALIB=all` also rounds 23–26's calibration sets calib5, calib6, calib7 and calib8 (calib6: 46 off-topic office questions sharing
 * the articles' words)
 */
export const CALIBRATION_GROUPS: readonly GateGroup[] =
  process.env.CALIB === "old"
    ? ["tuned", "fresh even"]
    : process.env.CALIB === "all"
      ? ["tuned", "fresh even", "calib4", "calib5", "calib6", "calib7", "calib8"]
      : ["tuned", "fresh even", "calib4"];

/** every group in report order: calibration first, then the held-out fresh odd */
export const REPORT_GROUPS: readonly GateGroup[] = [
  "tuned",
  "fresh even",
  "calib4",
  ...(process.env.CALIB === "all" ? (["calib5", "calib6", "calib7", "calib8"] as const) : []),
  "fresh odd",
];

export const isCalibration = (g: GateGroup): boolean => CALIBRATION_GROUPS.includes(g);

export interface GateQuestion {
  id: string;
  question: string;
  /** 1: on-topic (should pass the gate), 0: off-topic */
  y: number;
  group: GateGroup;
}

/** The sets holding calibration questions (`setFile` names; undefined: the tuned set), the fresh set's odd ids held out. */
export const CALIBRATION_SETS = [
  undefined,
  "fresh",
  "calib4",
  "calib5",
  "calib6",
  "calib7",
  "calib8",
] as const;

/** Every question of the tuned, the fresh and the calib4 set (`CALIB=all`: calib5, calib6, calib7, calib8 too), on-topic first, with its group. */
export function gateQuestions(): GateQuestion[] {
  const out: GateQuestion[] = [];
  const sets = process.env.CALIB === "all" ? CALIBRATION_SETS : CALIBRATION_SETS.slice(0, 3);
  for (const set of sets) {
    const ds = readDataset(setFile(set));
    const group = (id: string): GateGroup =>
      !set ? "tuned" : set === "fresh" ? (isHeldOut(id) ? "fresh odd" : "fresh even") : (set as GateGroup);
    for (const q of ds.onTopic) out.push({ id: q.id, question: q.question, y: 1, group: group(q.id) });
    for (const q of ds.offTopic) out.push({ id: q.id, question: q.question, y: 0, group: group(q.id) });
  }
  return out;
}

/** The model's probability for features `x` (x[0] is the intercept's 1). */
export const logistic = (w: readonly number[], x: readonly number[]): number =>
  1 / (1 + Math.exp(-x.reduce((z, v, i) => z + w[i] * v, 0)));

/**
 * Logistic regression: the weights minimising the mean log loss plus L2/2 on every weight but the intercept
 * (`balanced` weighs both classes the same), by Newton's method (converged in a few steps; gate-cv.ts fits hundreds
 * of models, and gradient descent's 20,000 steps stopped short of the minimum).
 */
export function fitLogistic(
  train: readonly { x: number[]; y: number }[],
  { l2 = 0.01, balanced = false, iterations = 50 } = {},
): number[] {
  const d = train[0].x.length;
  const n = train.length;
  const pos = train.filter((e) => e.y === 1).length;
  const weight = (y: number) => (!balanced ? 1 : y === 1 ? n / (2 * pos) : n / (2 * (n - pos)));
  const w = new Array(d).fill(0);
  for (let it = 0; it < iterations; it++) {
    const g = new Array(d).fill(0);
    const h = Array.from({ length: d }, () => new Array(d).fill(0));
    for (const e of train) {
      const p = logistic(w, e.x);
      const s = weight(e.y) * p * (1 - p);
      for (let i = 0; i < d; i++) {
        g[i] += (weight(e.y) * (p - e.y) * e.x[i]) / n;
        for (let j = 0; j < d; j++) h[i][j] += (s * e.x[i] * e.x[j]) / n;
      }
    }
    for (let i = 1; i < d; i++) {
      g[i] += l2 * w[i];
      h[i][i] += l2;
    }
    const step = solve(h, g);
    let moved = 0;
    for (let i = 0; i < d; i++) {
      w[i] -= step[i];
      moved = Math.max(moved, Math.abs(step[i]));
    }
    if (moved < 1e-9) break;
  }
  return w;
}

/** x with a·x = b (Gaussian elimination, partial pivoting; a small ridge keeps a singular system solvable). */
function solve(a0: number[][], b: number[]): number[] {
  const d = b.length;
  const a = a0.map((row, i) => [...row.map((v, j) => (i === j ? v + 1e-12 : v)), b[i]]);
  for (let c = 0; c < d; c++) {
    let piv = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    [a[c], a[piv]] = [a[piv], a[c]];
    for (let r = c + 1; r < d; r++) {
      const f = a[r][c] / a[c][c];
      for (let k = c; k <= d; k++) a[r][k] -= f * a[c][k];
    }
  }
  const x = new Array(d).fill(0);
  for (let r = d - 1; r >= 0; r--) {
    let v = a[r][d];
    for (let k = r + 1; k < d; k++) v -= a[r][k] * x[k];
    x[r] = v / a[r][r];
  }
  return x;
}
