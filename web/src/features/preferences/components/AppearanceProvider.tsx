import { CssBaseline, ThemeProvider, useMediaQuery } from "@mui/material";
import { type ReactNode, useEffect, useMemo } from "react";
import { I18nContext, type I18nValue, localeOf, makeTranslate } from "../../../i18n/i18n";
import { createAppTheme, resolveMode } from "../../../theme";
import { usePreferences } from "../hooks/usePreferences";

/** Applies the preferred language (texts, <html lang>) and theme (light/dark/system). */
export function AppearanceProvider({ children }: { children: ReactNode }) {
  const { preferences } = usePreferences();
  const systemDark = useMediaQuery("(prefers-color-scheme: dark)", { noSsr: true });
  const mode = resolveMode(preferences.theme, systemDark);
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  const i18n = useMemo<I18nValue>(
    () => ({
      language: preferences.language,
      locale: localeOf(preferences.language),
      t: makeTranslate(preferences.language),
    }),
    [preferences.language],
  );

  useEffect(() => {
    document.documentElement.lang = preferences.language;
    document.documentElement.dataset.theme = mode;
  }, [preferences.language, mode]);

  return (
    <I18nContext.Provider value={i18n}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </I18nContext.Provider>
  );
}
