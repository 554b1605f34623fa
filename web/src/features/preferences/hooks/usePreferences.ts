import { createContext, useContext } from "react";
import type { Language } from "../../../i18n/i18n";
import type { ThemePreference } from "../../../theme";

export interface UiPreferences {
  language: Language;
  theme: ThemePreference;
  notifications: boolean;
}

/** Spec §9 defaults. */
export const DEFAULT_PREFERENCES: UiPreferences = { language: "da", theme: "light", notifications: true };

export interface PreferencesContextValue {
  /** In effect now: the server's when signed in, otherwise the last ones seen on this device (or the defaults). */
  preferences: UiPreferences;
  /** Signed in and the server's preferences are not loaded yet. */
  loading: boolean;
  /** The server's preferences failed to load. */
  error: boolean;
  /** Loaded from the server (null until then or when signed out). */
  server: UiPreferences | null;
  refetch: () => Promise<unknown>;
}

export const PreferencesContext = createContext<PreferencesContextValue | null>(null);

export function usePreferences(): PreferencesContextValue {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error("usePreferences must be used within a PreferencesProvider");
  return value;
}
