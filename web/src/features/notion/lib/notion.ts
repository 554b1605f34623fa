import { type MessageParams, notionFailureMessageKey } from "@vidensbank/shared";
import type { Language } from "../../../i18n/i18n";
import { serverMessageText } from "../../../i18n/serverMessage";
import { MAX_PROPERTY_NAMES, SCORE_FAIR, SCORE_RECOMMENDED } from "../constants";

export type ScoreLevel = "good" | "fair" | "poor";

/** Spec §2/§9: green at 80 or more, yellow at 60 or more, otherwise red. */
export function scoreLevel(score: number): ScoreLevel {
  if (score >= SCORE_RECOMMENDED) return "good";
  if (score >= SCORE_FAIR) return "fair";
  return "poor";
}

/** The MUI palette colour of a score level. */
export function scoreColor(score: number): "success" | "warning" | "error" {
  const level = scoreLevel(score);
  return level === "good" ? "success" : level === "fair" ? "warning" : "error";
}

/** Spec §2: up to 3 property names, then '…' when there are more. */
export function propertySummary(names: readonly string[]): string {
  const shown = names.slice(0, MAX_PROPERTY_NAMES).join(", ");
  return names.length > MAX_PROPERTY_NAMES ? `${shown}, …` : shown;
}

/** A score kept inside 0–100 (the bar's range). */
export function clampScore(score: number): number {
  return Math.max(0, Math.min(100, Math.round(score)));
}

export interface DatabaseFigures {
  id: string;
  pageCount: number;
}

export interface SummaryFigures {
  available: number;
  active: number;
  totalPages: number;
}

/** Spec §2's first three figures: databases available, selected ones, and the pages of the selected ones. */
export function summaryFigures(
  databases: readonly DatabaseFigures[],
  selected: ReadonlySet<string>,
): SummaryFigures {
  const chosen = databases.filter((d) => selected.has(d.id));
  return {
    available: databases.length,
    active: chosen.length,
    totalPages: chosen.reduce((sum, d) => sum + d.pageCount, 0),
  };
}

/** A selection with `id` added or removed. */
export function toggled(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Whether two selections hold the same ids. */
export function sameSelection(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}

export interface SyncCounts {
  pagesSeen: number;
  pagesDone: number;
  pagesFailed: number;
}

/** Progress of a run in percent (done + failed of seen); null while nothing is known yet (indeterminate bar). */
export function syncPercent(run: SyncCounts): number | null {
  if (run.pagesSeen <= 0) return null;
  return Math.min(100, Math.round(((run.pagesDone + run.pagesFailed) / run.pagesSeen) * 100));
}

/** The newer of two runs (by start time; the same run keeps whichever has more progress). */
export function newerRun<T extends SyncCounts & { id: string; startedAt: string; state: string }>(
  a: T | null,
  b: T | null,
): T | null {
  if (!a) return b;
  if (!b) return a;
  if (a.id === b.id) {
    if (a.state !== "running" && b.state === "running") return a;
    if (b.state !== "running" && a.state === "running") return b;
    return b.pagesDone + b.pagesFailed >= a.pagesDone + a.pagesFailed ? b : a;
  }
  return new Date(b.startedAt).getTime() >= new Date(a.startedAt).getTime() ? b : a;
}

/** The return from Notion's OAuth flow that asks for the status card on the chat page (`?notion=…&reason=…`). */
export type NotionReturn = { result: "connected" } | { result: "error"; notConfigured: boolean } | null;

export function notionReturnOf(search: string): NotionReturn {
  const params = new URLSearchParams(search);
  const value = params.get("notion");
  if (value === "connected") return { result: "connected" };
  if (value === "error") return { result: "error", notConfigured: params.get("reason") === "not_configured" };
  return null;
}

/** The address without the `notion` (and its `reason`) parameters. */
export function withoutNotionParam(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("notion");
  params.delete("reason");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/** A sync's or a page's failure as stored: the Danish text and, on runs since the reasons were keyed, its reason. */
export interface NotionFailure {
  text: string;
  key?: string | null;
  params?: Record<string, unknown> | null;
}

/**
 * A failure in the reader's language through the server-message path: a Notion reason by its catalogue key
 * (@vidensbank/shared NOTION_FAILURE_KEYS), an error of the shared catalogue by its key, else (an older run, a key
 * this build does not know) the stored text.
 */
export function notionFailureText(failure: NotionFailure, language: Language): string {
  const { text } = failure;
  const key = notionFailureMessageKey(failure.key);
  return serverMessageText({ key, params: scalarParams(failure.params), text }, language) ?? text;
}

/** the parameters that are strings or numbers (the API sends no other; a JSON object could carry any) */
function scalarParams(params: Record<string, unknown> | null | undefined): MessageParams {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params ?? {}))
    if (typeof value === "string" || typeof value === "number") out[name] = value;
  return out;
}
