/** Chat screen constants (spec §4 and §9, plus the API's limits the UI mirrors). */

/** Spec §9: while an answer is being generated and no live event arrives, the messages are polled this often. */
export const CHAT_POLL_MS = 2_000;
/** a question may be at most this long (the shared rule the API enforces) */
/** a session title, a 'Søg i samtaler' query and a feedback comment: the shared limits the API enforces */
export {
  CHAT_MESSAGE_MAX_LENGTH,
  FEEDBACK_COMMENT_MAX_LENGTH,
  SEARCH_QUERY_MAX_LENGTH as SESSION_SEARCH_MAX_LENGTH,
  SESSION_TITLE_MAX_LENGTH,
} from "@vidensbank/shared";
/** the search box waits this long after the last key before asking the API */
export const SESSION_SEARCH_DEBOUNCE_MS = 250;
/**
 * A session opens at its newest page of messages (the API's default, 50) and loads the page before it (this many)
 * when the reader scrolls to within LOAD_EARLIER_PX of the top, or presses "Vis tidligere beskeder".
 */
export const EARLIER_PAGE_SIZE = 100;
export const LOAD_EARLIER_PX = 300;
/** the message list counts as "at the bottom" within this many pixels */
export const STICK_TO_BOTTOM_PX = 80;
/** the sidebar's width on desktop */
export const SIDEBAR_WIDTH = 300;
