import { formatMessage, type MessageKey, type MessageParams } from "./messages";

/**
 * Why a Notion sync or one of its pages failed, by reason, and the catalogue key of each reason's text
 * (messages.ts, da + en). A run stores the reason (`errorKey` / a failure's `messageKey`), its parameters and the
 * Danish text; the web app shows the text for the reader's language by this table. A failure that is an AppError
 * stores its own catalogue key instead (isMessageKey tells them apart: reasons have no dot).
 */
export const NOTION_FAILURE_KEYS = {
  unauthorized: "notion.syncUnauthorized",
  unexpectedShape: "notion.syncUnexpectedShape",
  unreachable: "notion.syncUnreachable",
  pageGone: "notion.syncPageGone",
  rateLimited: "notion.syncRateLimited",
  notionError: "notion.syncNotionError",
  rejected: "notion.syncRejected",
  unexpected: "notion.syncUnexpected",
  notConnected: "notion.notConnected",
  someDatabasesFailed: "notion.syncSomeDatabasesFailed",
  alreadyRunning: "notion.syncAlreadyRunning",
} as const satisfies Record<string, MessageKey>;

export type NotionFailureReason = keyof typeof NOTION_FAILURE_KEYS;

/**
 * The stored text of a run refused because another process syncs: English since the first release, and kept byte
 * for byte (the CLI prints it, REST and GraphQL carry it); readers see `notion.syncAlreadyRunning` in their language.
 */
export const ALREADY_RUNNING_STORED_TEXT = "Another sync is running";

/** The catalogue key of a stored reason, or the stored key itself when it is one (an AppError's); else undefined. */
export function notionFailureMessageKey(key: string | null | undefined): MessageKey | string | undefined {
  if (!key) return undefined;
  return Object.hasOwn(NOTION_FAILURE_KEYS, key) ? NOTION_FAILURE_KEYS[key as NotionFailureReason] : key;
}

/** The text a failure is stored with (Danish, but see ALREADY_RUNNING_STORED_TEXT). */
export function notionFailureStoredText(reason: NotionFailureReason, params: MessageParams = {}): string {
  if (reason === "alreadyRunning") return ALREADY_RUNNING_STORED_TEXT;
  return formatMessage(NOTION_FAILURE_KEYS[reason], params, "da");
}
