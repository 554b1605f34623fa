/**
 * REST routes for shared conversations (spec §7 style, errors `{ message, code }`):
 *   POST   /api/chat/sessions/:sessionId/share   201 { id, sessionId, title, createdAt, url }
 *   GET    /api/chat/shares                      the user's shares, newest first
 *   DELETE /api/chat/shares/:shareId             { ok: true } (the owner, or an admin any share)
 *   GET    /api/shared/:shareId                  the snapshot, read-only, for any signed-in user
 *   GET    /api/admin/chat-shares                every share with its owner's e-mail (admin)
 */
import { Router } from "express";
import { presentMessageRest } from "../chat/chat.presenter";
import { requireAdmin, requireUser, signedIn } from "../rest/auth-middleware";
import type { Services } from "../services";

export function sharesRestRouter(services: Services): Router {
  const r = Router();

  r.post("/chat/sessions/:sessionId/share", requireUser, async (req, res) => {
    const share = await services.shares.share(signedIn(res).user, String(req.params.sessionId));
    res.status(201).json(share);
  });

  r.get("/chat/shares", requireUser, async (_req, res) => {
    res.json(await services.shares.list(signedIn(res).user));
  });

  r.delete("/chat/shares/:shareId", requireUser, async (req, res) => {
    await services.shares.revoke(signedIn(res).user, String(req.params.shareId));
    res.json({ ok: true });
  });

  r.get("/shared/:shareId", requireUser, async (req, res) => {
    const shared = await services.shares.open(String(req.params.shareId));
    res.json({ ...shared, messages: shared.messages.map(presentMessageRest) });
  });

  r.get("/admin/chat-shares", requireAdmin, async (_req, res) => {
    res.json(await services.shares.adminList());
  });

  return r;
}
