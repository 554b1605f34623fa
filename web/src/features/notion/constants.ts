/** Spec §5/§9: a database scoring this much or more is recommended (and its bar is green). */
export const SCORE_RECOMMENDED = 80;
/** Spec §9: from this score the bar is yellow; below it, red. */
export const SCORE_FAIR = 60;
/** Spec §2: the database list scrolls inside this height. */
export const DATABASE_LIST_HEIGHT = "24rem";
/** Spec §2: property names shown per database before '…'. */
export const MAX_PROPERTY_NAMES = 3;
/** Browser navigation that starts Notion's OAuth flow (spec §7). */
export const NOTION_CONNECT_PATH = "/api/auth/notion";
/** While a sync runs and no live progress arrived for this long, the latest run is polled (like the chat's 2 s). */
export const SYNC_POLL_MS = 2000;
/** Bounds the token field (Notion's tokens are about 50 characters). */
export const NOTION_TOKEN_MAX_LENGTH = 200;
/** Failed pages listed under the last sync before '+n more'. */
export const MAX_FAILURES_SHOWN = 20;
