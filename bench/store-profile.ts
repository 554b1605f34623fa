/**
 * Where the embedded store's CPU went, from its V8 CPU profile (`npm run bench:cluster -- --parts mix
 * --store-cpu-prof DIR`): the busy samples' self time by function (top N) and by file, and the time on the stack
 * (inclusive) of the store's own stages.
 *   npx tsx bench/store-profile.ts DIR/CPU.….cpuprofile [--top N]
 *   … --callers REGEX   the samples with a frame matching REGEX on their stack, by the store's own frames
 *     (src/…) above it (inclusive): who pays for that code
 */
import { readFileSync } from "node:fs";
import { type Profile, type ProfileNode, stackReader } from "./cpu-profile";

/** inclusive stages: a sample counts in every stage whose pattern matches a frame on its stack */
const STAGES: Array<[string, RegExp]> = [
  ["GC", /^\(garbage collector\)@/],
  ["wire: read + parse message", /wire\/message\.ts|Connection\.onData|connection\.ts@onData/],
  ["bson deserialize", /^(deserialize|internalDeserialize|deserializeObject)@bson/],
  ["bson serialize", /^(serialize|serializeInto|calculateObjectSize|internalCalculateObjectSize)@bson/],
  ["command dispatch (wire/commands)", /wire\/commands\//],
  ["changestream", /changestream\//],
  ["engine: query / mingo", /engine\/query\.ts|node_modules\/mingo/],
  ["engine: update", /engine\/update\.ts/],
  ["engine: change log (change streams' history)", /engine\/changelog\.ts/],
  ["engine: WAL / records", /engine\/(wal|records|storage)\.ts/],
  ["engine: keys / indexes", /engine\/(keys|btree|index-specs)\.ts|sorted-btree/],
  ["socket writes", /^(writeGeneric|writev|_writeGeneric|writeOrBuffer|writeBuffer)@/],
  ["mingo Context copies (init/addOps)", /^(init|addOps|from)@mingo\/cjs\/core/],
];

function label(n: ProfileNode): string {
  const url = n.callFrame.url.replace(/^.*\/(node_modules\/|packages\/embedded-mongo\/)/, "");
  return `${n.callFrame.functionName || "(anonymous)"}@${url}:${n.callFrame.lineNumber + 1}`;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error("usage: store-profile.ts PROFILE [--top N]");
  const topArg = process.argv.indexOf("--top");
  const top = topArg >= 0 ? Number(process.argv[topArg + 1]) : 30;
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const stackOf = stackReader(p);
  const self = new Map<string, number>();
  const byFile = new Map<string, number>();
  const stage = new Map<string, number>();
  const callersArg = process.argv.indexOf("--callers");
  const callersRe = callersArg >= 0 ? new RegExp(process.argv[callersArg + 1]!) : null;
  const callers = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const n = byId.get(id)!;
    if (n.callFrame.functionName === "(idle)" || n.callFrame.functionName === "(program)") {
      idle += dt;
      return;
    }
    busy += dt;
    const l = label(n);
    self.set(l, (self.get(l) ?? 0) + dt);
    const f = l.replace(/^[^@]*@/, "").replace(/:\d+$/, "") || "(native)";
    byFile.set(f, (byFile.get(f) ?? 0) + dt);
    const stack = stackOf(id).map(label);
    if (callersRe) {
      const at = stack.findIndex((s) => callersRe.test(s));
      if (at >= 0) {
        const chain = stack
          .slice(at)
          .filter((s) => s.includes("src/"))
          .slice(0, 3)
          .join(" < ");
        callers.set(chain, (callers.get(chain) ?? 0) + dt);
      }
    }
    for (const [name, re] of STAGES)
      if (stack.some((s) => re.test(s))) stage.set(name, (stage.get(name) ?? 0) + dt);
  });
  const pct = (v: number) => `${((v / busy) * 100).toFixed(1).padStart(5)} %`;
  console.log(`busy ${(busy / 1e6).toFixed(2)} s, idle/program ${(idle / 1e6).toFixed(2)} s`);
  console.log("\nstages (inclusive, overlapping):");
  for (const [name] of STAGES) console.log(`  ${pct(stage.get(name) ?? 0)}  ${name}`);
  console.log("\nself time by file:");
  for (const [f, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(v)}  ${f}`);
  if (callersRe) {
    console.log(`\ncallers of ${callersRe.source} (inclusive):`);
    for (const [c, v] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`  ${pct(v)}  ${c}`);
  }
  console.log(`\nself time, top ${top} functions:`);
  for (const [f, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(v)}  ${f}`);
}

main();
