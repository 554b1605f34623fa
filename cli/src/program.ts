/**
 * The commander program: the command groups, each registered the same way (`commands/<group>.ts` exports
 * `register(program, ctx)`). Adding a group is one file and one line in `COMMAND_GROUPS`.
 */
import { Command } from "commander";
import type { CommandContext, CommandGroup } from "./command";
import * as admin from "./commands/admin";
import * as knowledge from "./commands/knowledge";
import * as notion from "./commands/notion";
import * as shares from "./commands/shares";
import * as stats from "./commands/stats";
import * as users from "./commands/users";

export const COMMAND_GROUPS: readonly CommandGroup[] = [users, admin, knowledge, notion, stats, shares];

export function buildProgram(ctx: CommandContext): Command {
  const program = new Command("vidensbank")
    .description(
      "Vidensbank admin CLI. Uses MONGODB_URI, or the embedded store in DATA_DIR (also while the server runs).",
    )
    .showHelpAfterError();
  for (const group of COMMAND_GROUPS) group.register(program, ctx);

  // every command throws instead of exiting and writes through ctx.io (index.ts turns both into an exit code)
  const output = {
    writeOut: (s: string) => ctx.io.out(s.trimEnd()),
    writeErr: (s: string) => ctx.io.err(s.trimEnd()),
  };
  const configure = (cmd: Command) => {
    cmd.exitOverride().configureOutput(output);
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  return program;
}
