/**
 * REST routes of Notion (spec §7 paths): the status for any signed-in user; connecting (token or OAuth),
 * disconnecting, the workspace's databases, the configuration and the sync for the admin only.
 */
import { type Response, Router } from "express";
import { isAppError } from "../errors";
import { logger } from "../logger";
import { requireAdmin, requireUser, signedIn } from "../rest/auth-middleware";
import { readBody, readQueryString } from "../rest/validate";
import type { Services } from "../services";

function redirect(res: Response, query: string): void {
  res.redirect(302, `/?${query}`);
}

export function notionRestRouter(services: Services): Router {
  const r = Router();
  const notion = () => services.notion;

  r.get("/auth/notion/status", requireUser, async (_req, res) => {
    const { connected, workspace } = await notion().status();
    res.json({ connected, workspace });
  });

  r.get("/auth/notion", requireAdmin, (_req, res) => {
    const url = notion().oauthStart(signedIn(res).user);
    if (!url) return redirect(res, "notion=error&reason=not_configured");
    res.redirect(302, url);
  });

  r.get("/auth/notion/callback", requireAdmin, async (req, res) => {
    const code = readQueryString(req.query, "code") ?? "";
    const state = readQueryString(req.query, "state") ?? "";
    if (readQueryString(req.query, "error") || !code) return redirect(res, "notion=error&reason=denied");
    try {
      await notion().oauthCallback(signedIn(res).user, code, state);
      redirect(res, "notion=connected");
    } catch (err) {
      if (!isAppError(err)) logger.error({ err: String(err) }, "notion oauth callback failed");
      const reason = isAppError(err) && err.code === "BAD_USER_INPUT" ? "state" : "exchange";
      redirect(res, `notion=error&reason=${reason}`);
    }
  });

  r.post("/auth/notion/disconnect", requireAdmin, async (_req, res) => {
    const { connected, workspace } = await notion().disconnect(signedIn(res).user);
    res.json({ connected, workspace });
  });

  r.post("/admin/notion/token", requireAdmin, async (req, res) => {
    const { token } = readBody(req.body, { token: "string" });
    const { connected, workspace } = await notion().connectToken(signedIn(res).user, token);
    res.json({ connected, workspace });
  });

  r.get("/admin/notion/databases", requireAdmin, async (_req, res) => {
    res.json(await notion().databases(signedIn(res).user));
  });

  r.get("/admin/notion/config", requireAdmin, async (_req, res) => {
    res.json(await notion().getConfig());
  });

  r.post("/admin/notion/config", requireAdmin, async (req, res) => {
    const body = (req.body ?? {}) as { selectedDatabases?: unknown };
    // lastUpdated and totalPages are the server's (the client sends 0): read, not trusted
    res.json(await notion().saveConfig(signedIn(res).user, body.selectedDatabases));
  });

  r.post("/admin/notion/sync", requireAdmin, async (_req, res) => {
    res.status(202).json(await notion().startSync(signedIn(res).user, "manual"));
  });

  r.get("/admin/notion/sync", requireAdmin, async (_req, res) => {
    res.json(await notion().latestRun());
  });

  return r;
}
