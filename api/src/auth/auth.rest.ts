/** REST compatibility routes for accounts and sign-in (spec §7). Thin: read, call one service, shape. */
import { formatMessage } from "@vidensbank/shared";
import { Router } from "express";
import { locals, requestMeta, requireUser, signedIn } from "../rest/auth-middleware";
import { readBody, readQueryString } from "../rest/validate";
import type { Services } from "../services";
import { presentUser } from "../users/user.presenter";
import { clearAuthCookie, setAuthCookie } from "./auth.cookie";

export function authRestRouter(services: Services): Router {
  const r = Router();

  r.get("/auth/status", (_req, res) => {
    const auth = locals(res).auth;
    res.json({ isAuthenticated: !!auth, user: auth ? presentUser(auth.user) : null });
  });

  r.post("/auth/login", async (req, res) => {
    const input = readBody(req.body, { email: "string", password: "string" });
    const result = await services.auth.login(input, requestMeta(req));
    setAuthCookie(res, services.config, result.token, result.expiresAt);
    res.json({ token: result.token, user: result.user, message: result.message });
  });

  r.post("/auth/logout", async (_req, res) => {
    const { auth } = locals(res);
    await services.auth.logout(auth);
    clearAuthCookie(res, services.config);
    res.json({ ok: true, message: formatMessage("auth.loggedOut") });
  });

  r.post("/auth/register", async (req, res) => {
    const input = readBody(req.body, {
      name: "string",
      email: "string",
      username: "string",
      password: "string",
    });
    const result = await services.auth.register(input, requestMeta(req));
    res.status(201).json({ verificationRequired: result.verificationRequired, message: result.message });
  });

  r.get("/verify-email", async (req, res) => {
    const token = readQueryString(req.query, "token") ?? "";
    res.json(await services.auth.verifyEmail(token, requestMeta(req)));
  });

  r.post("/resend-verification", async (req, res) => {
    const { email } = readBody(req.body, { email: "string" });
    res.json(await services.auth.resendVerification(email, requestMeta(req)));
  });

  r.post("/auth/forgot-password", async (req, res) => {
    const { email } = readBody(req.body, { email: "string" });
    res.json(await services.auth.forgotPassword(email, requestMeta(req)));
  });

  r.post("/auth/reset-password", async (req, res) => {
    const input = readBody(req.body, { token: "string", newPassword: "string" });
    res.json(await services.auth.resetPassword(input, requestMeta(req)));
  });

  r.put("/user/password", requireUser, async (req, res) => {
    const input = readBody(req.body, {
      currentPassword: "string",
      newPassword: "string",
      confirmPassword: "string?",
    });
    await services.auth.changePassword(signedIn(res), input, requestMeta(req));
    res.json({ ok: true, message: formatMessage("auth.passwordChanged") });
  });

  return r;
}
