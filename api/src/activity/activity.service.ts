/**
 * The activity log. Every module records what users do through recordActivity(), as a message by key
 * (activity.messages.ts: the entry stores the key, its parameters and their Danish text); the admin reads it
 * through listActivity(). Recording never fails the caller's operation: a write error is logged and swallowed.
 */
import { actionsSaying, type MessageParams } from "@vidensbank/shared";
import { toObjectId } from "../db/ids";
import { Errors } from "../errors";
import type { EventBus } from "../events/bus";
import { logger } from "../logger";
import { escapeRegExp } from "../util";
import {
  ACTIVITY_ACTION_MAX_LENGTH,
  ACTIVITY_LIMIT_DEFAULT,
  ACTIVITY_LIMIT_MAX,
  ACTIVITY_OFFSET_MAX,
  ACTIVITY_SEARCH_MAX_LENGTH,
  ACTIVITY_TIME_FILTERS,
} from "./activity.limits";
import { type ActivityMessage, activityKeysSaying, activityText } from "./activity.messages";
import { ActivityModel } from "./activity.model";

/** Actions with their own icon in the admin UI (spec §3); others (admin_*, logout, ...) get a default style. */
export type ActivityAction =
  | "login"
  | "logout"
  | "register"
  | "verify_email"
  | "password_change"
  | "password_reset"
  | "chat"
  | "message"
  | "bookmark"
  | "chat_share"
  | "chat_share_revoke"
  | "search"
  | "admin_delete_user"
  | "admin_reset_password"
  | "admin_create_user"
  | (string & {});

export interface ActivityInput {
  action: ActivityAction;
  /** what happened, by key: { key: "log.login", params: { name } } (stored with its Danish text as description) */
  message: ActivityMessage;
  userEmail?: string | null;
  userId?: string | null;
  metadata?: Record<string, unknown>;
}

export interface ActivityEntry {
  id: string;
  action: string;
  /** Danish: the text of messageKey, or all an entry from before the keys has */
  description: string;
  /** the catalogue key of the text (`log.*`); null for an entry from before the keys */
  messageKey: string | null;
  messageParams: MessageParams | null;
  userEmail: string | null;
  timestamp: Date;
  metadata: Record<string, unknown>;
}

export interface ActivityFilter {
  action?: string | null;
  /** only entries from the last N hours */
  sinceHours?: number | null;
  /** case-insensitive over description, e-mail and action */
  search?: string | null;
  limit?: number | null;
}

/**
 * The buses new entries are announced on (ACTIVITY_LOGGED). recordActivity() is a plain function that every
 * feature calls, so the composition root connects the app's bus here (services.ts) rather than passing it to
 * each caller; close() disconnects it.
 */
const announceTo = new Set<EventBus>();

/** Announce new entries on this bus until the returned function is called. */
export function connectActivityLog(events: EventBus): () => void {
  announceTo.add(events);
  return () => {
    announceTo.delete(events);
  };
}

/** entries waiting for their store write at most (one write then) */
export const ACTIVITY_BATCH_MAX = 500;
/** how long the chat's background `message` entries may wait to share a write with others (ms) */
export const ACTIVITY_BACKGROUND_WAIT_MS = 50;

interface Waiting {
  entry: ActivityInput & { timestamp: Date };
  written: () => void;
}
let waiting: Waiting[] = [];
/** when the waiting entries are written (ms since epoch); Infinity: nothing scheduled */
let writeAt = Number.POSITIVE_INFINITY;
/** cancels the scheduled write */
let cancelWrite: (() => void) | null = null;

/**
 * Record one activity-log entry (its timestamp: now). Never throws. Resolves when it is written. Entries
 * recorded in the same moment share one store write (a burst of questions writes one insert, not fifty):
 * an entry waits for the end of the current event-loop turn, or up to `waitMs` when its caller does not wait
 * for it (background bookkeeping).
 */
export function recordActivity(
  input: ActivityInput,
  { waitMs = 0 }: { waitMs?: number } = {},
): Promise<void> {
  return new Promise<void>((written) => {
    waiting.push({ entry: { ...input, timestamp: new Date() }, written });
    if (waiting.length >= ACTIVITY_BATCH_MAX) return void writeWaiting();
    const at = Date.now() + Math.max(0, waitMs);
    if (at >= writeAt) return;
    cancelWrite?.();
    writeAt = at;
    if (waitMs > 0) {
      const timer = setTimeout(writeWaiting, waitMs);
      cancelWrite = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(writeWaiting);
      cancelWrite = () => clearImmediate(immediate);
    }
  });
}

/** Write every waiting entry now, in the order recorded (one insert). */
function writeWaiting(): Promise<void> {
  cancelWrite?.();
  cancelWrite = null;
  writeAt = Number.POSITIVE_INFINITY;
  const batch = waiting;
  waiting = [];
  return recordActivities(batch.map((w) => w.entry)).then(() => {
    for (const w of batch) w.written();
  });
}

/**
 * Record entries with one store write, in order (`timestamp`: when it happened, default now). Modules that log
 * often and off the request path (searches) batch them. Never throws.
 */
export async function recordActivities(inputs: Array<ActivityInput & { timestamp?: Date }>): Promise<void> {
  if (inputs.length === 0) return;
  try {
    const docs = await ActivityModel.insertMany(
      inputs.map((input) => ({
        action: input.action,
        ...activityText(input.message),
        userEmail: input.userEmail ?? null,
        userId: toObjectId(input.userId),
        timestamp: input.timestamp ?? new Date(),
        metadata: input.metadata ?? {},
      })),
      // every field is set here, from the server's own values: no casting, defaults or documents needed
      { lean: true },
    );
    for (const doc of docs) {
      const entry = toEntry(doc);
      for (const events of announceTo) events.publish("ACTIVITY_LOGGED", entry);
    }
  } catch (err) {
    logger.error({ err, action: inputs[0].action, entries: inputs.length }, "could not record activity");
  }
}

/** Stored parameters as an object (what the server writes; anything else, e.g. edited by hand, reads as none). */
const paramsOf = (value: unknown): MessageParams =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as MessageParams) : {};

/** The entry as read by admins and subscribers. */
function toEntry(d: {
  _id: unknown;
  action: string;
  description: string;
  messageKey?: string | null;
  messageParams?: unknown;
  userEmail?: string | null;
  timestamp: Date;
  metadata?: unknown;
}): ActivityEntry {
  return {
    id: String(d._id),
    action: d.action,
    description: d.description,
    messageKey: d.messageKey ?? null,
    messageParams: d.messageKey ? paramsOf(d.messageParams) : null,
    userEmail: d.userEmail ?? null,
    timestamp: d.timestamp,
    metadata: (d.metadata as Record<string, unknown>) ?? {},
  };
}

/** The hours of a time filter ("1h" | "24h" | "7d" | "all"); unknown → INVALID_INPUT. */
export function hoursOfTimeFilter(time: string | null | undefined): number | null {
  if (time === null || time === undefined || time === "") return null;
  if (!(time in ACTIVITY_TIME_FILTERS)) throw Errors.invalidField("time", "activity.timeInvalid");
  return ACTIVITY_TIME_FILTERS[time];
}

/** The store query of a filter (bounded inputs checked here, once). */
function activityQuery(filter: ActivityFilter): Record<string, unknown> {
  const search = filter.search?.trim();
  if (search && search.length > ACTIVITY_SEARCH_MAX_LENGTH) {
    throw Errors.invalidField("search", "activity.searchTooLong", { max: ACTIVITY_SEARCH_MAX_LENGTH });
  }
  if (filter.action && filter.action.length > ACTIVITY_ACTION_MAX_LENGTH) {
    throw Errors.invalidField("action", "activity.actionInvalid");
  }
  const query: Record<string, unknown> = {};
  if (filter.action && filter.action !== "all") query.action = filter.action;
  if (filter.sinceHours && filter.sinceHours > 0) {
    query.timestamp = { $gte: new Date(Date.now() - filter.sinceHours * 3600_000) };
  }
  if (search) {
    const re = { $regex: escapeRegExp(search), $options: "i" };
    // what the reader's language shows, not only the Danish description: the entry's text and its badge's name
    const keys = activityKeysSaying(search);
    const named = actionsSaying(search);
    query.$or = [
      { description: re },
      { userEmail: re },
      { action: re },
      ...(keys.length > 0 ? [{ messageKey: { $in: keys } }] : []),
      ...(named.length > 0 ? [{ action: { $in: named } }] : []),
    ];
  }
  return query;
}

const clampLimit = (limit: number | null | undefined) =>
  Math.min(Math.max(Math.trunc(limit ?? ACTIVITY_LIMIT_DEFAULT), 1), ACTIVITY_LIMIT_MAX);

/** Newest first, filtered. */
export async function listActivity(filter: ActivityFilter = {}): Promise<ActivityEntry[]> {
  return (await pageActivity(filter)).entries;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  /** the number of entries matching the filter */
  total: number;
  hasMore: boolean;
}

/** One page (offset, limit) of the filtered log, newest first, with the filter's total. */
export async function pageActivity(
  filter: ActivityFilter & { offset?: number | null; withTotal?: boolean } = {},
): Promise<ActivityPage> {
  const query = activityQuery(filter);
  const limit = clampLimit(filter.limit);
  const offset = Math.trunc(filter.offset ?? 0);
  if (!Number.isFinite(offset) || offset < 0 || offset > ACTIVITY_OFFSET_MAX) {
    throw Errors.invalidField("offset", "activity.offsetInvalid", { max: ACTIVITY_OFFSET_MAX });
  }
  const [docs, total] = await Promise.all([
    ActivityModel.find(query).sort({ timestamp: -1, _id: -1 }).skip(offset).limit(limit).lean(),
    filter.withTotal === false ? Promise.resolve(-1) : ActivityModel.countDocuments(query),
  ]);
  const entries = docs.map(toEntry);
  return { entries, total, hasMore: total >= 0 && offset + entries.length < total };
}
