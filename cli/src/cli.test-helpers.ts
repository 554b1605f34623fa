/** Test helpers of the CLI: parse a command line without running it, or run one and capture its output. */
import { Readable } from "node:stream";
import type { Invoke } from "./command";
import { run } from "./index";
import { buildProgram } from "./program";

/** The commander program over a recording `invoke`: what a command line parses to, without running anything. */
export function parseHarness() {
  const calls: unknown[][] = [];
  const err: string[] = [];
  const io = { out: () => undefined, err: (l: string) => err.push(l) };
  const invoke: Invoke = async (name, _body, ...args) => {
    calls.push([name, ...args]);
  };
  return { program: buildProgram({ io, invoke }), calls, err };
}

/** Run the CLI on `argv` (against the configured store) and capture its exit code and output. */
export function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return runCliWithInput(undefined, ...argv);
}

/** runCli with `input` as its standard input (what a secret given as `-` is read from). */
export async function runCliWithInput(
  input: string | undefined,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  const code = await run(argv, input === undefined ? io : { ...io, input: Readable.from([input]) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
