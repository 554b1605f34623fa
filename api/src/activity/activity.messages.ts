/**
 * What an activity-log entry says, by key: a `log.*` entry of the message catalogue (@vidensbank/shared
 * messages.ts) and its parameters. The entry stores the key and the parameters, for the web app to show in the
 * reader's language, and their Danish text as `description` (what the admin search filters on, what the CLI
 * prints, and all that entries from before the keys have). This module is the one place that makes both, so they
 * cannot disagree.
 */
import {
  formatMessage,
  type MessageKey,
  type MessageParams,
  messageSays,
  messages,
  placeholdersOf,
} from "@vidensbank/shared";

/** The catalogue keys an activity-log entry may use. */
export type ActivityMessageKey = Extract<MessageKey, `log.${string}`>;

/** What an entry says: its key and the values of the key's placeholders. */
export interface ActivityMessage {
  key: ActivityMessageKey;
  params?: MessageParams;
}

/** The most parameters an entry stores (the catalogue test checks that no `log.*` text has more placeholders). */
export const ACTIVITY_PARAMS_MAX = 6;
/** The longest text parameter stored, in characters; a longer one (a long title) is cut and ends with "…". */
export const ACTIVITY_PARAM_MAX_LENGTH = 200;

/** What recordActivity stores for a message: the Danish text and the bounded key and parameters it came from. */
export interface ActivityText {
  description: string;
  messageKey: ActivityMessageKey;
  messageParams: MessageParams;
}

/** The parameter names of a key's text, e.g. ["name", "query"]. */
function parameterNames(key: ActivityMessageKey): string[] {
  return placeholdersOf(messages[key].da).map((p) => p.split(":")[0]);
}

/** A string cut to ACTIVITY_PARAM_MAX_LENGTH characters (whole code points) with "…" at the end. */
function bounded(value: string | number): string | number {
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  const chars = Array.from(value);
  if (chars.length <= ACTIVITY_PARAM_MAX_LENGTH) return value;
  return `${chars.slice(0, ACTIVITY_PARAM_MAX_LENGTH - 1).join("")}…`;
}

/**
 * The stored form of a message: only the parameters its text uses (at most ACTIVITY_PARAMS_MAX), strings or
 * finite numbers, texts cut to ACTIVITY_PARAM_MAX_LENGTH; the description is their Danish text.
 */
export function activityText(message: ActivityMessage): ActivityText {
  const given = message.params ?? {};
  const params: Record<string, string | number> = {};
  for (const name of parameterNames(message.key).slice(0, ACTIVITY_PARAMS_MAX)) {
    if (Object.hasOwn(given, name)) params[name] = bounded(given[name]);
  }
  return {
    description: formatMessage(message.key, params, "da"),
    messageKey: message.key,
    messageParams: params,
  };
}

/** Every catalogue key an entry may use (tests). */
export function activityMessageKeys(): ActivityMessageKey[] {
  return (Object.keys(messages) as MessageKey[]).filter((k): k is ActivityMessageKey => k.startsWith("log."));
}

/**
 * The activity keys whose text in any language says `search` in its own words (messageSays): "signed in" finds
 * `log.login`. A search spanning a value and the text ("Anna signed in") finds nothing here; the description
 * matches the values.
 */
export function activityKeysSaying(search: string): ActivityMessageKey[] {
  return activityMessageKeys().filter((key) => messageSays(key, search));
}
