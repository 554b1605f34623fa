/** Activity log rules of the admin screen (spec §2 activity tab, §9 filter constants). */
import { actionSays, isMessageKey, messageSays } from "@vidensbank/shared";
import { da, type MessageKey } from "../../../i18n/da";
import type { ServerMessage } from "../../../i18n/serverMessage";

/** Action filter choices (spec §9); "all" sends no action. */
export const ACTION_FILTERS = ["all", "login", "register", "chat", "bookmark", "search"] as const;
export type ActionFilter = (typeof ACTION_FILTERS)[number];

/** Time windows (spec §9: 7d is 168 hours); "all" sends no time. */
export const TIME_FILTERS = ["all", "1h", "24h", "7d"] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];
const TIME_HOURS: Record<Exclude<TimeFilter, "all">, number> = { "1h": 1, "24h": 24, "7d": 168 };

/**
 * The badge text's key of a logged action ("search" → "Søgning" / "Search"); null for an action the UI has no name
 * for yet, which shows as logged.
 */
export function actionLabelKey(action: string): MessageKey | null {
  const key = `admin.activity.action.${action}`;
  return action !== "all" && Object.hasOwn(da, key) ? (key as MessageKey) : null;
}

/** Entries per page of the log ("Vis flere" loads the next page). */
export const ACTIVITY_PAGE_SIZE = 50;
/** Same bound as the API (ACTIVITY_SEARCH_MAX_LENGTH). */
export const ACTIVITY_SEARCH_MAX_LENGTH = 200;

export interface ActivityFilters {
  action: ActionFilter;
  time: TimeFilter;
  search: string;
}

export const NO_FILTERS: ActivityFilters = { action: "all", time: "all", search: "" };

export function hasFilters(f: ActivityFilters): boolean {
  return f.action !== "all" || f.time !== "all" || f.search.trim() !== "";
}

/** The activityPage variables for the filters. */
export function filterVariables(f: ActivityFilters) {
  const search = f.search.trim();
  return {
    action: f.action === "all" ? null : f.action,
    time: f.time === "all" ? null : f.time,
    search: search || null,
  };
}

interface EntryLike {
  action: string;
  description: string;
  messageKey?: string | null;
  userEmail?: string | null;
  timestamp: string;
}

/**
 * Whether an entry pushed live belongs in the list the filters show (the same rule as the server: exact action,
 * inside the time window, search case-insensitive over description, e-mail and action code, or said by the entry's
 * message text or by its action's name, the badge, in either language: messageSays, actionSays).
 */
export function matchesFilters(entry: EntryLike, f: ActivityFilters, now: Date = new Date()): boolean {
  if (f.action !== "all" && entry.action !== f.action) return false;
  if (f.time !== "all") {
    const since = now.getTime() - TIME_HOURS[f.time] * 3600_000;
    if (new Date(entry.timestamp).getTime() < since) return false;
  }
  const q = f.search.trim().toLowerCase();
  if (q) {
    const hay = [entry.description, entry.userEmail ?? "", entry.action].map((s) => s.toLowerCase());
    const said =
      (isMessageKey(entry.messageKey) && messageSays(entry.messageKey, q)) || actionSays(entry.action, q);
    if (!said && !hay.some((s) => s.includes(q))) return false;
  }
  return true;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** dd/MM/yyyy HH:mm in the browser's time zone (spec §2). */
export function formatLogDate(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value) : value;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Metadata as indented JSON text (shown in a <pre>, never as markup); null when there is nothing to show. */
export function formatMetadata(metadata: Record<string, unknown> | null | undefined): string | null {
  if (!metadata || Object.keys(metadata).length === 0) return null;
  return JSON.stringify(metadata, null, 2);
}

/** An entry's text as the server stored it: its key and parameters, and the Danish description. */
interface LoggedText {
  description: string;
  messageKey?: string | null;
  messageParams?: Record<string, unknown> | null;
}

/**
 * An entry's text to show by key in the user's language (useServerMessage), falling back to the stored Danish
 * description for an entry from before the keys or a key this build does not know. Only text and number
 * parameters are kept; they are user data (a search, a title, an e-mail), shown as text.
 */
export function activityMessage(entry: LoggedText): ServerMessage {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(entry.messageParams ?? {})) {
    if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value)))
      params[name] = value;
  }
  return { key: entry.messageKey, params, text: entry.description };
}
