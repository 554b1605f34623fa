/**
 * The admin's read-only views in a terminal, through the same services as the admin panel:
 *   vidensbank stats                                  the statistics as a table (figures defined in api/src/admin)
 *   vidensbank activity [--action --since --search --limit --offset]   the activity log, newest first
 *   vidensbank gaps [--limit]                         questions the knowledge base could not answer, grouped
 * Each takes --json for scripts (the service's objects as JSON).
 */
import type { ActivityPage, AdminStatsView, KnowledgeGapView } from "@vidensbank/api/cli";
import { type Command, Option } from "commander";
import type { CommandContext } from "../command";
import type { CliContext } from "../context";
import { CliError, EXIT } from "../errors";
import { renderTable } from "./users";

export interface JsonOption {
  json?: boolean;
}
export interface ActivityOptions extends JsonOption {
  action?: string;
  since?: "1h" | "24h" | "7d";
  search?: string;
  limit?: string;
  offset?: string;
}
export interface GapsOptions extends JsonOption {
  limit?: string;
}

const SINCE_HOURS = { "1h": 1, "24h": 24, "7d": 168 } as const;
const stamp = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ");

function count(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new CliError(`--${name} skal være et helt tal fra ${min} til ${max}`, EXIT.usage);
  }
  return Number(raw);
}

/** The statistics as a two-column table, then the lists. */
export function statsText(s: AdminStatsView): string {
  const figures = renderTable(
    ["NØGLETAL", "VÆRDI"],
    [
      ["Samlede brugere", String(s.totalUsers)],
      ["Aktive brugere (30 dage)", String(s.activeUsers)],
      ["Ugentligt aktive (7 dage)", String(s.weeklyActiveUsers)],
      ["Samtaler", String(s.totalChatSessions)],
      ["Beskeder i dag", String(s.todayMessages)],
      ["Samlede beskeder", String(s.totalMessages)],
      ["Bogmærker", String(s.totalBookmarks)],
      ["Gns. session (min)", String(Math.round(s.avgSessionDuration / 60))],
      ["Feedback (op / ned)", `${s.feedback.up} / ${s.feedback.down}`],
    ],
  );
  const categories = s.topCategories.length
    ? renderTable(
        ["KATEGORI", "VISNINGER"],
        s.topCategories.map((c) => [c.category, String(c.count)]),
      )
    : "Ingen kategoridata tilgængelig";
  const recent = s.recentActivity.length
    ? renderTable(
        ["TIDSPUNKT", "BRUGER", "AKTIVITET"],
        s.recentActivity.map((a) => [stamp(a.timestamp), a.userEmail ?? "-", a.description]),
      )
    : "Ingen aktivitet registreret";
  return [figures, "", "Populære kategorier", categories, "", "Seneste aktivitet", recent].join("\n");
}

export function activityText(page: ActivityPage): string {
  const table = renderTable(
    ["TIDSPUNKT", "HANDLING", "BRUGER", "BESKRIVELSE"],
    page.entries.map((e) => [stamp(e.timestamp), e.action, e.userEmail ?? "-", e.description]),
  );
  if (page.entries.length === 0) return "Ingen aktivitet fundet";
  return `${table}\n${page.entries.length} af ${page.total} aktiviteter`;
}

export function gapsText(gaps: KnowledgeGapView[]): string {
  if (gaps.length === 0) return "Ingen ubesvarede spørgsmål";
  return renderTable(
    ["ANTAL", "SENEST", "SPØRGSMÅL"],
    gaps.map((g) => [String(g.count), stamp(g.lastAskedAt), g.question]),
  );
}

export async function stats(ctx: CliContext, opts: JsonOption): Promise<AdminStatsView> {
  const s = await ctx.services.admin.stats();
  ctx.io.out(opts.json ? JSON.stringify(s) : statsText(s));
  return s;
}

export async function activity(ctx: CliContext, opts: ActivityOptions): Promise<ActivityPage> {
  const page = await ctx.services.activity.page({
    action: opts.action,
    sinceHours: opts.since ? SINCE_HOURS[opts.since] : null,
    search: opts.search,
    limit: count(opts.limit, "limit", 50, 1, 1000),
    offset: count(opts.offset, "offset", 0, 0, 100_000),
  });
  ctx.io.out(opts.json ? JSON.stringify(page) : activityText(page));
  return page;
}

export async function gaps(ctx: CliContext, opts: GapsOptions): Promise<KnowledgeGapView[]> {
  const list = await ctx.services.admin.knowledgeGaps(count(opts.limit, "limit", 20, 1, 100));
  ctx.io.out(opts.json ? JSON.stringify(list) : gapsText(list));
  return list;
}

export function register(program: Command, { invoke }: CommandContext): void {
  program
    .command("stats")
    .description("the admin statistics (users, messages, sessions, bookmarks, categories, activity)")
    .option("--json", "print the figures as JSON")
    .action((opts: JsonOption) => invoke("stats", stats, opts));
  program
    .command("activity")
    .description("the activity log, newest first")
    .option("--action <action>", "only this action (login, register, chat, bookmark, search, ...)")
    .addOption(new Option("--since <window>", "only the last 1h, 24h or 7d").choices(["1h", "24h", "7d"]))
    .option("--search <text>", "text in the description or e-mail (case-insensitive)")
    .option("--limit <n>", "entries to show (default 50, at most 1000)")
    .option("--offset <n>", "skip this many newer entries")
    .option("--json", "print the page as JSON")
    .action((opts: ActivityOptions) => invoke("activity", activity, opts));
  program
    .command("gaps")
    .description("questions the knowledge base could not answer, grouped by similarity")
    .option("--limit <n>", "groups to show (default 20, at most 100)")
    .option("--json", "print the groups as JSON")
    .action((opts: GapsOptions) => invoke("gaps", gaps, opts));
}
