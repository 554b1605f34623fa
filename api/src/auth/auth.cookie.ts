/** The httpOnly auth_token cookie (cookie-only clients and same-origin websockets). */
import type { Request, Response } from "express";
import type { AppConfig } from "../config";

export const AUTH_COOKIE = "auth_token";

export function setAuthCookie(res: Response, config: AppConfig, token: string, expiresAt: Date): void {
  res.cookie(AUTH_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.appUrl.startsWith("https:"),
    path: "/",
    expires: expiresAt,
  });
}

export function clearAuthCookie(res: Response, config: AppConfig): void {
  res.clearCookie(AUTH_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.appUrl.startsWith("https:"),
    path: "/",
  });
}

/** Bearer header first, then the cookie. */
export function tokenFromRequest(
  req: Pick<Request, "headers"> & { cookies?: Record<string, unknown> },
): string | null {
  const header = req.headers.authorization;
  if (typeof header === "string" && header.startsWith("Bearer ")) {
    const t = header.slice(7).trim();
    if (t && t !== "null" && t !== "undefined") return t;
  }
  const cookie = req.cookies?.[AUTH_COOKIE];
  return typeof cookie === "string" && cookie ? cookie : null;
}

/** Read a cookie from a raw Cookie header (websocket upgrade requests). */
export function tokenFromCookieHeader(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === AUTH_COOKIE) {
      try {
        return decodeURIComponent(rest.join("=")) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}
