import { isLanguage } from "../../i18n/i18n";
import { DEFAULT_PREFERENCES, type UiPreferences } from "./hooks/usePreferences";

// The last preferences seen on this device, so signed-out screens and the first paint use the user's language/theme.
const KEY = "vidensbank_ui_preferences";

export function readStoredPreferences(): UiPreferences {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<UiPreferences> | null;
    if (!raw) return DEFAULT_PREFERENCES;
    return {
      language: isLanguage(raw.language) ? raw.language : DEFAULT_PREFERENCES.language,
      theme:
        raw.theme === "dark" || raw.theme === "light" || raw.theme === "system"
          ? raw.theme
          : DEFAULT_PREFERENCES.theme,
      notifications:
        typeof raw.notifications === "boolean" ? raw.notifications : DEFAULT_PREFERENCES.notifications,
    };
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

export function storePreferences(prefs: UiPreferences): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // private mode or full storage: the server copy still rules when signed in
  }
}
