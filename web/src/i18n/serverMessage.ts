import { formatMessage, isMessageKey, type MessageParams } from "@vidensbank/shared";
import { useCallback } from "react";
import { type Language, useI18n } from "./i18n";

/**
 * A text from the server for people: its catalogue key and parameters (@vidensbank/shared messages.ts) when the
 * server sent one, and the server's own (Danish) text as the fallback for a key this build does not know.
 */
export interface ServerMessage {
  key?: string | null;
  params?: MessageParams | null;
  text?: string | null;
}

/** The message in `language`: by key from the shared catalogue, else the server's text as it came. */
export function serverMessageText(message: ServerMessage, language: Language): string | undefined {
  if (isMessageKey(message.key)) return formatMessage(message.key, message.params ?? {}, language);
  return message.text ?? undefined;
}

export type ServerMessageText = (message: ServerMessage | null | undefined) => string | undefined;

/** serverMessageText in the current language; null/undefined (no message) give undefined. */
export function useServerMessage(): ServerMessageText {
  const { language } = useI18n();
  return useCallback(
    (message: ServerMessage | null | undefined) =>
      message ? serverMessageText(message, language) : undefined,
    [language],
  );
}
