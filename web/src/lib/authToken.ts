/** The local storage key holding the JWT (spec §9). Other tabs watch it through the storage event. */
export const AUTH_TOKEN_KEY = "auth_token";

export function getAuthToken(): string | null {
  try {
    return localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setAuthToken(token: string): void {
  localStorage.setItem(AUTH_TOKEN_KEY, token);
}

export function clearAuthToken(): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
}

/**
 * Written when a sign-out has ended the session on the server: other tabs check their sign-in again then. The
 * token's removal alone is not enough: it comes first (nothing sent after it carries the token), and a tab checking
 * on it could still be answered as signed in, through the cookie, before the server has ended the session.
 */
export const SIGNED_OUT_KEY = "auth_signed_out";

export function announceSignedOut(): void {
  try {
    localStorage.setItem(SIGNED_OUT_KEY, String(Date.now()));
  } catch {
    // storage unavailable: other tabs notice on their next check (focus)
  }
}
