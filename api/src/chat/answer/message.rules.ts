/**
 * Limits and validation for a chat message the user sends. Dependency-free, so the web client can import the
 * same rule and messages (one place for the rule). Spec §5: an empty or whitespace-only message is not sent.
 */

/** The longest chat message accepted, in characters (UTF-16 code units, as a textarea's maxLength counts). */
export const CHAT_MESSAGE_MAX_LENGTH = 8_000;

export const chatMessageMessages = {
  empty: "Beskeden er tom. Skriv et spørgsmål, før du sender.",
  tooLong: (length: number) =>
    `Beskeden er for lang: højst ${CHAT_MESSAGE_MAX_LENGTH.toLocaleString("da-DK")} tegn er tilladt ` +
    `(din besked har ${length.toLocaleString("da-DK")} tegn). Forkort den, og prøv igen.`,
  notText: "Beskeden skal være tekst.",
} as const;

export type ChatMessageValidation =
  | { ok: true /** the message trimmed: what is stored and answered */; content: string }
  | { ok: false; code: "MESSAGE_EMPTY" | "MESSAGE_TOO_LONG"; message: string };

/**
 * Validate a chat message from the client (never trusted): must be a string, not empty or whitespace-only, and
 * at most CHAT_MESSAGE_MAX_LENGTH characters after trimming.
 */
export function validateChatMessage(content: unknown): ChatMessageValidation {
  if (typeof content !== "string")
    return { ok: false, code: "MESSAGE_EMPTY", message: chatMessageMessages.notText };
  const trimmed = content.trim();
  if (trimmed.length === 0) return { ok: false, code: "MESSAGE_EMPTY", message: chatMessageMessages.empty };
  if (trimmed.length > CHAT_MESSAGE_MAX_LENGTH) {
    return { ok: false, code: "MESSAGE_TOO_LONG", message: chatMessageMessages.tooLong(trimmed.length) };
  }
  return { ok: true, content: trimmed };
}
