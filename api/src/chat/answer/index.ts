/** Public surface of the answering engine, for the chat service. */

export { CHAT_MESSAGE_MAX_LENGTH, type ChatMessageValidation, validateChatMessage } from "@vidensbank/shared";
export { escapeInline, escapeTags, HtmlStripper, plainText, stripHtml } from "../../markdown/sanitize";
export {
  answerQuestion,
  DEFAULT_MIN_SCORE,
  DEFAULT_RETRIEVE_K,
  LLM_MIN_SCORE,
  prefetchRetrieval,
} from "./answer.service";
export { buildCitations, cleanCitations, extractCitationNumbers } from "./citations";
export {
  type CitedArticle,
  citedArticles,
  FOLLOW_UPS_MAX,
  markdownHeadings,
  suggestFollowUps,
} from "./follow-ups";
export {
  FOLLOW_UP_MAX_LENGTH,
  FOLLOW_UPS_MODEL_MAX_TOKENS,
  FOLLOW_UPS_MODEL_TIMEOUT_MS,
  FOLLOW_UPS_PROMPT_MARKER,
  parseFollowUps,
  writeFollowUps,
} from "./follow-ups.model";
export { DEFAULT_STALE_DAYS, freshnessWarnings } from "./freshness";
export { buildChatMessages, selectHistory } from "./prompt";
export { buildRetrievalQuery } from "./retrieval-query";
export { fallbackSessionTitle, SESSION_TITLE_MAX_LENGTH, suggestSessionTitle } from "./session-title";
export type * from "./types";
