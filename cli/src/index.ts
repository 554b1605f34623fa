/**
 * Entry of the `vidensbank` CLI. The one top-level catch: every error becomes a message on stderr and an
 * exit code (see errors.ts).
 */
import { CommanderError } from "commander";
import { contextInvoke, type Invoke } from "./command";
import type { Output } from "./context";
import { describeError, EXIT } from "./errors";
import { buildProgram } from "./program";

const stdio: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Run one command line (without "node vidensbank"); resolves with the exit code. `invoke` runs the parsed
 * command (default: with config, database and services open).
 */
export async function run(
  argv: string[],
  io: Output = stdio,
  invoke: Invoke = contextInvoke(io),
): Promise<number> {
  const program = buildProgram({ io, invoke });
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const { message, exitCode } = describeError(err);
    io.err(message);
    return exitCode;
  }
}

export async function main(): Promise<void> {
  process.exitCode = await run(process.argv.slice(2));
}
