/** The stable error codes: REST's `code`, GraphQL's `extensions.code`, the CLI's exit code (one table each side). */
export type ErrorCode =
  | "BAD_USER_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "EMAIL_NOT_VERIFIED"
  | "INVALID_CREDENTIALS"
  | "INVALID_TOKEN"
  | "TOO_MANY_REQUESTS"
  | "PAYLOAD_TOO_LARGE"
  | "RESPONSE_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "REQUEST_TIMEOUT"
  | "HEADERS_TOO_LARGE"
  | "INTERNAL_SERVER_ERROR"
  /** Notion refused the integration token (invalid or revoked) */
  | "NOTION_TOKEN_INVALID"
  /** Notion could not be reached or answered with an error */
  | "NOTION_UNAVAILABLE"
  /** a chat scope names an article that does not exist (or that the user cannot see) */
  | "SCOPE_ARTICLE_NOT_FOUND"
  /** the user has CHAT_SESSIONS_PER_USER_MAX chat sessions: no new one until some are deleted */
  | "CHAT_SESSION_LIMIT"
  /** the session holds CHAT_MESSAGES_PER_SESSION_MAX messages: no new question in it (start a new session) */
  | "CHAT_SESSION_FULL";
