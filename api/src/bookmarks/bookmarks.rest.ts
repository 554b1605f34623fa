/**
 * REST routes for bookmarks: GET /api/user/bookmarks, POST /api/user/bookmarks { articleId } (201 when
 * created, 200 when it already existed), DELETE /api/user/bookmarks/:articleId (404 when not bookmarked).
 */
import { Router } from "express";
import { requireUser, signedIn } from "../rest/auth-middleware";
import { readBody } from "../rest/validate";
import type { Services } from "../services";

export function bookmarksRestRouter(services: Services): Router {
  const r = Router();

  r.get("/user/bookmarks", requireUser, async (_req, res) => {
    res.json(await services.bookmarks.list(signedIn(res).user));
  });

  r.post("/user/bookmarks", requireUser, async (req, res) => {
    const { articleId } = readBody(req.body, { articleId: "string" });
    const { bookmark, created } = await services.bookmarks.add(signedIn(res).user, articleId);
    res.status(created ? 201 : 200).json({ ...bookmark, created });
  });

  r.delete("/user/bookmarks/:articleId", requireUser, async (req, res) => {
    await services.bookmarks.remove(signedIn(res).user, String(req.params.articleId));
    res.json({ ok: true });
  });

  return r;
}
