/**
 * Shared conversations for the admin (issue 17), through the same service as the admin panel:
 *   vidensbank shares list [--json]      every share, newest first, with its owner's e-mail
 *   vidensbank shares revoke <shareId>   end a share (its link answers 404 from then on); logged as the admin
 */
import type { ChatShareView } from "@vidensbank/api/cli";
import type { Command } from "commander";
import type { CommandContext } from "../command";
import type { CliContext } from "../context";
import type { JsonOption } from "./stats";
import { renderTable } from "./users";

const stamp = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ");

export function sharesText(shares: ChatShareView[]): string {
  if (shares.length === 0) return "Ingen delte samtaler";
  const table = renderTable(
    ["ID", "DELT", "EJER", "TITEL"],
    shares.map((s) => [s.id, stamp(s.createdAt), s.ownerEmail ?? "-", s.title]),
  );
  return `${table}\n${shares.length} delte samtaler`;
}

export async function sharesList(ctx: CliContext, opts: JsonOption): Promise<ChatShareView[]> {
  const shares = await ctx.services.shares.adminList();
  ctx.io.out(opts.json ? JSON.stringify(shares, null, 2) : sharesText(shares));
  return shares;
}

export async function sharesRevoke(ctx: CliContext, shareId: string): Promise<void> {
  await ctx.services.shares.revoke(await ctx.actor(), shareId);
  ctx.io.out(`Deling tilbagekaldt: ${shareId}`);
}

export function register(program: Command, { invoke }: CommandContext): void {
  const shares = program.command("shares").description("conversations shared read-only by users");
  shares
    .command("list")
    .description("every share, newest first, with its owner's e-mail and link id")
    .option("--json", "print JSON instead of a table")
    .action((opts: JsonOption) => invoke("sharesList", sharesList, opts));
  shares
    .command("revoke")
    .description("revoke a share: its link answers 404 from then on")
    .argument("<shareId>", "the share id (the last part of the link)")
    .action((shareId: string) => invoke("sharesRevoke", sharesRevoke, shareId));
}
