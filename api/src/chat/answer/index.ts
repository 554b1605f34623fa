/** Public surface of the answering engine, for the chat service. */

export { CHAT_MESSAGE_MAX_LENGTH, type ChatMessageValidation, validateChatMessage } from "@vidensbank/shared";
export { escapeInline, escapeTags, HtmlStripper, plainText, stripHtml } from "../../markdown/sanitize";
export { answerQuestion, DEFAULT_MIN_SCORE, DEFAULT_RETRIEVE_K, prefetchRetrieval } from "./answer.service";
export { buildCitations, cleanCitations, extractCitationNumbers } from "./citations";
export { FOLLOW_UPS_MAX, markdownHeadings, suggestFollowUps } from "./follow-ups";
export { DEFAULT_STALE_DAYS, freshnessWarnings } from "./freshness";
export { buildChatMessages, buildRetrievalQuery, selectHistory } from "./prompt";
export { fallbackSessionTitle, SESSION_TITLE_MAX_LENGTH, suggestSessionTitle } from "./session-title";
export type * from "./types";
