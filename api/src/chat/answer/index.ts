/** Public surface of the answering engine, for the chat service. */

export { escapeInline, escapeTags, HtmlStripper, plainText, stripHtml } from "../../markdown/sanitize";
export { answerQuestion, DEFAULT_MIN_SCORE, DEFAULT_RETRIEVE_K, prefetchRetrieval } from "./answer.service";
export { buildCitations, cleanCitations, extractCitationNumbers } from "./citations";
export { DEFAULT_STALE_DAYS, freshnessWarnings } from "./freshness";
export {
  CHAT_MESSAGE_MAX_LENGTH,
  type ChatMessageValidation,
  chatMessageMessages,
  validateChatMessage,
} from "./message.rules";
export { buildChatMessages, buildRetrievalQuery, selectHistory } from "./prompt";
export { fallbackSessionTitle, SESSION_TITLE_MAX_LENGTH, suggestSessionTitle } from "./session-title";
export type * from "./types";
