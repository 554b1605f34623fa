/**
 * `vidensbank notion …`: the Notion connection, the workspace's databases with their suitability score, the
 * selection of knowledge sources and the sync, as the built-in admin (the same services and rules as the web
 * app). The token is read from --token (`-`: from standard input) and never printed.
 */
import type { NotionDatabaseView, NotionStatusView, SyncRunView } from "@vidensbank/api/cli";
import type { Command } from "commander";
import type { CommandContext } from "../command";
import type { CliContext } from "../context";
import { CliError, EXIT } from "../errors";
import { secretValue } from "../secret";
import { renderTable } from "./users";

export interface JsonOption {
  json?: boolean;
}

export interface SyncOptions extends JsonOption {
  full?: boolean;
}

export function statusLine(s: NotionStatusView): string {
  if (!s.connected) return "Ikke forbundet til Notion";
  const via = s.via === "env" ? "NOTION_TOKEN" : s.via === "oauth" ? "OAuth" : "gemt nøgle";
  return `Forbundet til Notion: ${s.workspace?.name ?? "Notion"} (${via})`;
}

export function databasesTable(dbs: NotionDatabaseView[]): string {
  return renderTable(
    ["ID", "Titel", "Sider", "Score", "Anbefalet", "Valgt"],
    dbs.map((d) => [
      d.id,
      d.title.map((t) => t.plain_text).join("") || "Untitled",
      String(d.page_count),
      `${d.score}%`,
      d.recommended ? "ja" : "",
      d.selected ? "ja" : "",
    ]),
  );
}

export function runSummary(r: SyncRunView): string {
  const head =
    r.state === "succeeded"
      ? "Synkronisering færdig"
      : r.state === "running"
        ? "Synkroniserer"
        : "Synkronisering fejlede";
  const failures = r.failures.map((f) => `  ${f.title ?? f.pageId}: ${f.message}`);
  return [
    `${head}: ${r.pagesDone} sider hentet, ${r.pagesFailed} fejlede, ${r.articlesRemoved} artikler fjernet${r.error ? ` (${r.error})` : ""}`,
    ...failures,
  ].join("\n");
}

/** A progress bar of pages done out of pages seen so far. */
export function progressBar(r: SyncRunView, width = 30): string {
  const total = Math.max(r.pagesSeen, 1);
  const filled = Math.round((Math.min(r.pagesDone + r.pagesFailed, total) / total) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${r.pagesDone + r.pagesFailed}/${r.pagesSeen} sider`;
}

export async function notionStatus(ctx: CliContext, opts: JsonOption): Promise<void> {
  const s = await ctx.services.notion.status();
  ctx.io.out(opts.json ? JSON.stringify(s) : statusLine(s));
}

export async function notionConnect(ctx: CliContext, opts: { token: string }): Promise<void> {
  const token = (await secretValue(opts.token, ctx.io.input)) ?? "";
  const s = await ctx.services.notion.connectToken(await ctx.actor(), token);
  ctx.io.out(statusLine(s));
}

export async function notionDisconnect(ctx: CliContext): Promise<void> {
  const s = await ctx.services.notion.disconnect(await ctx.actor());
  ctx.io.out(s.connected ? `Gemt nøgle fjernet; ${statusLine(s)}` : "Notion-forbindelsen er afbrudt");
}

export async function notionDatabases(ctx: CliContext, opts: JsonOption): Promise<void> {
  const dbs = await ctx.services.notion.databases(await ctx.actor());
  ctx.io.out(
    opts.json
      ? JSON.stringify(dbs)
      : dbs.length
        ? databasesTable(dbs)
        : "Ingen databaser delt med integrationen",
  );
}

export async function notionSelect(ctx: CliContext, ids: string[], opts: JsonOption): Promise<void> {
  const config = await ctx.services.notion.saveConfig(await ctx.actor(), ids);
  ctx.io.out(
    opts.json
      ? JSON.stringify(config)
      : `${config.selectedDatabases.length} databaser konfigureret som videnskilder for alle brugere`,
  );
  // the save started a sync: wait for it, so the command ends with the articles in place
  const run = await watch(ctx, ctx.services.notion.sync.current, opts.json ?? false);
  if (run) ctx.io.out(opts.json ? JSON.stringify(run) : runSummary(run));
}

export async function notionSync(ctx: CliContext, opts: SyncOptions): Promise<void> {
  await ctx.actor();
  const { run } = await ctx.services.notion.sync.start("cli", { full: opts.full });
  const done = await watch(ctx, run, opts.json ?? false);
  const final = done ?? run;
  ctx.io.out(opts.json ? JSON.stringify(final) : runSummary(final));
  if (final.state === "failed") throw new CliError("Synkroniseringen fejlede", EXIT.unexpected);
}

/** Follow a run of this process to its end: a bar on a terminal, a line per step otherwise. */
async function watch(ctx: CliContext, run: SyncRunView | null, quiet: boolean): Promise<SyncRunView | null> {
  if (run?.state !== "running") return run;
  const tty = Boolean(process.stderr.isTTY) && !quiet;
  const events = ctx.services.events.subscribe("NOTION_SYNC_PROGRESS");
  const finished = ctx.services.notion.sync.idle();
  let last = "";
  const show = (r: SyncRunView) => {
    const line = progressBar(r);
    if (line === last || quiet) return;
    last = line;
    if (tty) process.stderr.write(`\r${line}`);
    else ctx.io.err(line);
  };
  void (async () => {
    for (let e = await events.next(); !e.done; e = await events.next())
      if (e.value.id === run.id) show(e.value);
  })();
  await finished;
  await events.return?.();
  if (tty) process.stderr.write("\n");
  return ctx.services.notion.latestRun();
}

export function register(program: Command, { invoke }: CommandContext): void {
  const notion = program.command("notion").description("Notion: connection, databases and sync");
  notion
    .command("status")
    .description("is Notion connected, and to which workspace")
    .option("--json", "print as JSON")
    .action((opts: JsonOption) => invoke("notionStatus", notionStatus, opts));
  notion
    .command("connect")
    .description("check an internal integration token with Notion and save it encrypted")
    .requiredOption(
      "--token <token>",
      "the integration token (secret_… or ntn_…); - reads it from standard input (not in ps or the shell history)",
    )
    .action((opts: { token: string }) => invoke("notionConnect", notionConnect, opts));
  notion
    .command("databases")
    .description("the databases shared with the integration, with suitability score")
    .option("--json", "print as JSON")
    .action((opts: JsonOption) => invoke("notionDatabases", notionDatabases, opts));
  notion
    .command("select")
    .description("use these databases as knowledge sources for all users (then sync)")
    .argument("<ids...>", "database ids from `notion databases`")
    .option("--json", "print as JSON")
    .action((ids: string[], opts: JsonOption) => invoke("notionSelect", notionSelect, ids, opts));
  notion
    .command("sync")
    .description("sync the selected databases now")
    .option("--full", "list every page (also finds pages deleted for good)")
    .option("--json", "print the run as JSON")
    .action((opts: SyncOptions) => invoke("notionSync", notionSync, opts));
  notion
    .command("disconnect")
    .description("forget the saved token")
    .action(() => invoke("notionDisconnect", notionDisconnect));
}
