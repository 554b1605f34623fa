import { useCallback } from "react";
import { type Language, makeTranslate, type Translate, useI18n } from "./i18n";
import { serverCodesEn, serverPatternsEn, serverTextsEn } from "./server.en";
import { translateRuleMessage } from "./validation";

const translators: Partial<Record<Language, Translate>> = {};
const translatorFor = (language: Language): Translate => {
  translators[language] ??= makeTranslate(language);
  return translators[language];
};

/**
 * The one place where a text from the server (a GraphQL error's message, a field error, a result message, or a
 * spec §5 rule message computed in the client from the shared rules) becomes a text in the user's language.
 * The server speaks Danish, so Danish is the text itself; English is looked up by the error's extensions.code
 * (codes that always carry one text), then the shared rules, then the exact text, then patterns with variables.
 * Unknown texts are returned unchanged.
 */
export function translateServerText(text: string, language: Language, code?: string | null): string {
  if (language === "da") return text;
  if (code && Object.hasOwn(serverCodesEn, code)) return serverCodesEn[code];
  const rule = translateRuleMessage(text, translatorFor(language));
  if (rule !== text) return rule;
  if (Object.hasOwn(serverTextsEn, text)) return serverTextsEn[text];
  for (const { pattern, english } of serverPatternsEn) {
    const match = pattern.exec(text);
    if (match) return english(match);
  }
  return text;
}

/** translateServerText in the current language; null/undefined (no server text) stay as they are. */
export interface ServerText {
  (text: string, code?: string | null): string;
  (text: string | null | undefined, code?: string | null): string | undefined;
}

/** The current language's server-text translator (see translateServerText). */
export function useServerText(): ServerText {
  const { language } = useI18n();
  return useCallback(
    (text: string | null | undefined, code?: string | null) =>
      text == null ? undefined : translateServerText(text, language, code),
    [language],
  ) as ServerText;
}
