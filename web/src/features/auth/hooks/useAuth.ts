import { createContext, useContext } from "react";
import type { MeQuery } from "../../../gql/graphql";

export type AuthUser = NonNullable<MeQuery["me"]>;

/** Spec §3/§4 auth state plus its actions. */
export interface AuthContextValue {
  isAuthenticated: boolean;
  user: AuthUser | null;
  /** True until the first status check has finished. */
  isLoading: boolean;
  /** Asks the server who we are; failure silently means signed out. */
  checkAuth: () => Promise<void>;
  /** Stores the token, marks the user signed in and rechecks after 100 ms. */
  login: (token: string, user: AuthUser) => void;
  /** Removes the token, then tells the server; throws (keeping the state) when the server call fails. */
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The auth state; only inside <AuthProvider>. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used within an AuthProvider");
  return value;
}
