/**
 * How a command group plugs into the program: each `commands/<group>.ts` exports `register(program, ctx)`,
 * declares its commands with commander and hands every parsed command to `ctx.invoke(name, body, ...args)`.
 * The body runs with config, database and services open (see context.ts); tests pass an `invoke` that records
 * the parsed call instead, so argument parsing is tested without a database.
 */
import type { Command } from "commander";
import { type CliContext, type Output, type WithContext, withContext } from "./context";

export type Invoke = <A extends unknown[]>(
  name: string,
  body: (ctx: CliContext, ...args: A) => Promise<unknown>,
  ...args: A
) => Promise<void>;

export interface CommandContext {
  io: Output;
  invoke: Invoke;
}

export interface CommandGroup {
  register(program: Command, ctx: CommandContext): void;
}

/** Run each command in its own database context. */
export function contextInvoke(io: Output, run: WithContext = withContext): Invoke {
  return (_name, body, ...args) =>
    run(io, async (ctx) => {
      await body(ctx, ...args);
    });
}
