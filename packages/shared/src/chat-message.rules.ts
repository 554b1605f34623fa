/**
 * Limits and validation for a chat message the user sends, shared by the API and the web client (one place for
 * the rule). Spec §5: an empty or whitespace-only message is not sent.
 */
import { formatMessage, type Message, messages } from "./messages";

/** The longest chat message accepted, in characters (UTF-16 code units, as a textarea's maxLength counts). */
export const CHAT_MESSAGE_MAX_LENGTH = 8_000;
/**
 * The title a session has until it is named (by the user, the model, or from its first question): the Danish text of
 * `chat.untitled`, stored as it is (REST's and GraphQL's `title`, spec §6 'Ny chat'); the web app shows a session
 * with this title as untitled in the reader's language, whoever gave it the title, and "Søg i samtaler" finds it by
 * the words of either language.
 */
export const NEW_SESSION_TITLE = messages["chat.untitled"].da;
/**
 * Is a session with this title untitled (no title, or still NEW_SESSION_TITLE, also when a user typed it)? The API's
 * rule, given to clients as GraphQL's `untitled` (ChatSession, SharedChat); the first question names such a session.
 */
export function isUntitledTitle(title: string | null | undefined): boolean {
  return !title || title === NEW_SESSION_TITLE;
}
/** The longest session title (a rename, or the title made from the first question). */
export const SESSION_TITLE_MAX_LENGTH = 60;
/** The longest 'Søg i samtaler' query. */
export const SEARCH_QUERY_MAX_LENGTH = 200;
/** The longest comment given with a thumbs up/down. */
export const FEEDBACK_COMMENT_MAX_LENGTH = 2_000;
/**
 * The most chat sessions one user may have: one more is refused (CHAT_SESSION_LIMIT, `chat.sessionLimit`) until
 * some are deleted. A user already over it (sessions made before the cap) still reads and deletes them.
 */
export const CHAT_SESSIONS_PER_USER_MAX = 1_000;
/**
 * The most messages (questions and answers, every branch) one session may hold: a question that would go past it
 * is refused (CHAT_SESSION_FULL, `chat.sessionFull`); a new session takes the conversation on.
 */
export const CHAT_MESSAGES_PER_SESSION_MAX = 10_000;

export type ChatMessageValidation =
  | { ok: true /** the message trimmed: what is stored and answered */; content: string }
  | ({
      ok: false;
      code: "MESSAGE_EMPTY" | "MESSAGE_TOO_LONG";
      /** the Danish text (formatMessage(key, params, "da")) */
      message: string;
    } & Message);

function refuse(code: "MESSAGE_EMPTY" | "MESSAGE_TOO_LONG", m: Message): ChatMessageValidation {
  return { ok: false, code, ...m, message: formatMessage(m.key, m.params, "da") };
}

/**
 * Validate a chat message from the client (never trusted): must be a string, not empty or whitespace-only, and
 * at most CHAT_MESSAGE_MAX_LENGTH characters after trimming.
 */
export function validateChatMessage(content: unknown): ChatMessageValidation {
  if (typeof content !== "string") return refuse("MESSAGE_EMPTY", { key: "chat.messageNotText" });
  const trimmed = content.trim();
  if (trimmed.length === 0) return refuse("MESSAGE_EMPTY", { key: "chat.messageEmpty" });
  if (trimmed.length > CHAT_MESSAGE_MAX_LENGTH) {
    return refuse("MESSAGE_TOO_LONG", {
      key: "chat.messageTooLong",
      params: { max: CHAT_MESSAGE_MAX_LENGTH, length: trimmed.length },
    });
  }
  return { ok: true, content: trimmed };
}
