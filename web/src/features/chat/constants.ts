/** Chat screen constants (spec §4 and §9, plus the API's limits the UI mirrors). */

/** Spec §9: while an answer is being generated and no live event arrives, the messages are polled this often. */
export const CHAT_POLL_MS = 2_000;
/** a question may be at most this long (the shared rule the API enforces) */
export { CHAT_MESSAGE_MAX_LENGTH } from "@vidensbank/shared";
/** a session title (the API's SESSION_TITLE_MAX_LENGTH) */
export const SESSION_TITLE_MAX_LENGTH = 60;
/** 'Søg i samtaler' (the API's SEARCH_QUERY_MAX_LENGTH) */
export const SESSION_SEARCH_MAX_LENGTH = 200;
/** a feedback comment (the API's FEEDBACK_COMMENT_MAX_LENGTH) */
export const FEEDBACK_COMMENT_MAX_LENGTH = 2_000;
/** the search box waits this long after the last key before asking the API */
export const SESSION_SEARCH_DEBOUNCE_MS = 250;
/** the message list counts as "at the bottom" within this many pixels */
export const STICK_TO_BOTTOM_PX = 80;
/** the sidebar's width on desktop */
export const SIDEBAR_WIDTH = 300;
