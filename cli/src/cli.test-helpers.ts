/** The commander program over a recording `invoke`: what a command line parses to, without running anything. */
import type { Invoke } from "./command";
import { buildProgram } from "./program";

export function parseHarness() {
  const calls: unknown[][] = [];
  const err: string[] = [];
  const io = { out: () => undefined, err: (l: string) => err.push(l) };
  const invoke: Invoke = async (name, _body, ...args) => {
    calls.push([name, ...args]);
  };
  return { program: buildProgram({ io, invoke }), calls, err };
}
