import { createContext, useContext } from "react";
import { da, type MessageKey, type Messages, type Plural } from "./da";
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

/**
 * The one rule for counts: a text given as a `Plural` ({ one, other }) picks its form by the number `n` under the
 * language's plural rules (Intl.PluralRules: "1 article", "2 articles"; Danish "1 artikel", "0 artikler"), and shows
 * `n` with the language's digit grouping ("1.234" / "1,234"). A plain text is the same for every count (the spec
 * pins several Danish ones, e.g. "{n} brugere").
 */
export function textFor(language: Language, key: MessageKey, params?: TranslateParams): string {
  const text: string | Plural = dictionaries[language][key];
  if (typeof text === "string") return interpolate(text, params);
  const n = Number(params?.n);
  const locale = localeOf(language);
  const form = Number.isFinite(n) && pluralRules(locale).select(n) === "one" ? text.one : text.other;
  return interpolate(form, Number.isFinite(n) ? { ...params, n: numberFormat(locale).format(n) } : params);
}

export function makeTranslate(language: Language): Translate {
  return (key, params) => textFor(language, key, params);
}

const pluralRulesByLocale = new Map<string, Intl.PluralRules>();
const numberFormatByLocale = new Map<string, Intl.NumberFormat>();

function pluralRules(locale: string): Intl.PluralRules {
  const rules = pluralRulesByLocale.get(locale) ?? new Intl.PluralRules(locale);
  pluralRulesByLocale.set(locale, rules);
  return rules;
}

function numberFormat(locale: string): Intl.NumberFormat {
  const format = numberFormatByLocale.get(locale) ?? new Intl.NumberFormat(locale);
  numberFormatByLocale.set(locale, format);
  return format;
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
