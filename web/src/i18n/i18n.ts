import { createContext, useContext } from "react";
import { da, type MessageKey, type Messages } from "./da";
import { en } from "./en";

export type Language = "da" | "en";

export const dictionaries: Record<Language, Messages> = { da, en };

export type TranslateParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: TranslateParams) => string;

export interface I18nValue {
  language: Language;
  /** BCP 47 locale for Intl formatting: da-DK for Danish, en-GB for English (both Monday-first, day-month). */
  locale: string;
  t: Translate;
}

/** Fills {name}-style placeholders. */
export function interpolate(text: string, params?: TranslateParams): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function makeTranslate(language: Language): Translate {
  const dict = dictionaries[language];
  return (key, params) => interpolate(dict[key], params);
}

export function localeOf(language: Language): string {
  return language === "en" ? "en-GB" : "da-DK";
}

export const I18nContext = createContext<I18nValue>({
  language: "da",
  locale: "da-DK",
  t: makeTranslate("da"),
});

/** The current language and its translate function. */
export function useI18n(): I18nValue {
  return useContext(I18nContext);
}

/** Shorthand for the translate function. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

export function isLanguage(value: unknown): value is Language {
  return value === "da" || value === "en";
}
