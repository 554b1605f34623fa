/**
 * Which app code pays for a library's CPU in a V8 CPU profile: every busy sample with a frame matching REGEX is
 * charged to the nearest api/packages frame above that match (the app function that called into it).
 *   npx tsx bench/cpu-callers.ts PROFILE REGEX [--top N] [--depth D]   (D: app frames shown per chain, default 1)
 */
import { readFileSync } from "node:fs";
import { type Profile, stackReader } from "./cpu-profile";
import { arg } from "./load";

const [file, pattern] = process.argv.slice(2);
const top = arg("top", 30);
const depth = arg("depth", 1);
const re = new RegExp(pattern);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const stackOf = stackReader(profile);
const app = /\/(api|packages)\/(src|[^/]+\/src)\//;
const short = (n: { callFrame: { functionName: string; url: string; lineNumber: number } }) =>
  `${n.callFrame.functionName || "(anon)"}@${n.callFrame.url.replace(/.*\/(api|packages)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
const by = new Map<string, number>();
let total = 0;
let matched = 0;
profile.samples.forEach((sample, i) => {
  const chain = stackOf(sample);
  const leaf = chain[0];
  if (!leaf || leaf.callFrame.functionName === "(idle)" || leaf.callFrame.functionName === "(program)")
    return;
  const d = profile.timeDeltas[i] ?? 0;
  total += d;
  // outermost match: the first library frame entered from app code
  let at = -1;
  for (let k = chain.length - 1; k >= 0; k--)
    if (re.test(`${chain[k].callFrame.functionName}@${chain[k].callFrame.url}`)) {
      at = k;
      break;
    }
  if (at < 0) return;
  matched += d;
  const callers = chain
    .slice(at + 1)
    .filter((n) => app.test(n.callFrame.url))
    .slice(0, depth)
    .map(short);
  const key = callers.length ? callers.join(" < ") : "(no app caller)";
  by.set(key, (by.get(key) ?? 0) + d);
});
console.log(`${pattern}: ${((100 * matched) / total).toFixed(1)} % of ${(total / 1000).toFixed(0)} ms busy`);
for (const [k, t] of [...by].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${((100 * t) / total).toFixed(1).padStart(6)} %  ${k}`);
