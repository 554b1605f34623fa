import { skipToken, useQuery, useSubscription } from "@apollo/client/react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useAuth } from "../../auth/hooks/useAuth";
import { MyPreferencesQuery } from "../graphql/myPreferences.query";
import { PreferencesChangedSubscription } from "../graphql/preferencesChanged.subscription";
import {
  PreferencesContext,
  type PreferencesContextValue,
  type UiPreferences,
} from "../hooks/usePreferences";
import { readStoredPreferences, storePreferences } from "../storage";

/** Loads the signed-in user's preferences and makes them the app's language and theme. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [stored, setStored] = useState<UiPreferences>(readStoredPreferences);
  const { data, error, refetch } = useQuery(
    MyPreferencesQuery,
    user ? { fetchPolicy: "network-only" } : skipToken,
  );
  // Saved in another tab or device: the server pushes the new preferences over graphql-ws.
  useSubscription(
    PreferencesChangedSubscription,
    user
      ? {
          onData: ({ client, data: pushed }) => {
            const myPreferences = pushed.data?.preferencesChanged;
            if (myPreferences) client.writeQuery({ query: MyPreferencesQuery, data: { myPreferences } });
          },
        }
      : skipToken,
  );

  const server = useMemo<UiPreferences | null>(() => {
    const p = user ? data?.myPreferences : undefined;
    return p ? { language: p.language, theme: p.theme, notifications: p.notifications } : null;
  }, [user, data]);

  useEffect(() => {
    if (server) {
      storePreferences(server);
      setStored(server);
    }
  }, [server]);

  const value = useMemo<PreferencesContextValue>(
    () => ({
      preferences: server ?? stored,
      loading: Boolean(user) && !server && !error,
      error: Boolean(user && error),
      server,
      refetch: () => refetch(),
    }),
    [server, stored, user, error, refetch],
  );
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}
