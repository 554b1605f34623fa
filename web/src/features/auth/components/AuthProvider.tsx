import { useApolloClient } from "@apollo/client/react";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  AUTH_TOKEN_KEY,
  announceSignedOut,
  clearAuthToken,
  SIGNED_OUT_KEY,
  setAuthToken,
} from "../../../lib/authToken";
import { AUTH_RECHECK_AFTER_LOGIN_MS } from "../constants";
import { LogoutMutation } from "../graphql/logout.mutation";
import { MeQuery } from "../graphql/me.query";
import { AuthContext, type AuthContextValue, type AuthUser } from "../hooks/useAuth";

interface AuthState {
  isAuthenticated: boolean;
  user: AuthUser | null;
  isLoading: boolean;
}

/**
 * Holds the sign-in state (spec §4): starts signed out and loading, rechecks on mount, on window focus and when
 * auth_token changes or a sign-out ends in another tab.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const client = useApolloClient();
  const [state, setState] = useState<AuthState>({ isAuthenticated: false, user: null, isLoading: true });
  // Only the newest check may write the state (a slow old answer must not undo a login).
  const checkSeq = useRef(0);

  const checkAuth = useCallback(async () => {
    const seq = ++checkSeq.current;
    let user: AuthUser | null = null;
    try {
      const result = await client.query({ query: MeQuery, fetchPolicy: "network-only" });
      user = result.data?.me ?? null;
    } catch {
      user = null;
    }
    if (seq !== checkSeq.current) return;
    setState({ isAuthenticated: user !== null, user, isLoading: false });
  }, [client]);

  useEffect(() => {
    void checkAuth();
    const onFocus = () => void checkAuth();
    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_TOKEN_KEY || event.key === SIGNED_OUT_KEY || event.key === null)
        void checkAuth();
    };
    window.addEventListener("focus", onFocus);
    window.addEventListener("storage", onStorage);
    return () => {
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("storage", onStorage);
    };
  }, [checkAuth]);

  const login = useCallback(
    (token: string, user: AuthUser) => {
      setAuthToken(token);
      checkSeq.current++; // an older check in flight must not sign us out again
      setState({ isAuthenticated: true, user, isLoading: false });
      setTimeout(() => void checkAuth(), AUTH_RECHECK_AFTER_LOGIN_MS);
    },
    [checkAuth],
  );

  const logout = useCallback(async () => {
    // Token first, so nothing sent after this point carries it; the server call revokes the session and cookie.
    clearAuthToken();
    const result = await client.mutate({ mutation: LogoutMutation });
    if (!result.data?.logout) throw new Error("logout refused");
    announceSignedOut();
    checkSeq.current++;
    await client.clearStore();
    setState({ isAuthenticated: false, user: null, isLoading: false });
  }, [client]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, checkAuth, login, logout }),
    [state, checkAuth, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
