/**
 * REST routes for bookmarks: GET /api/user/bookmarks, POST /api/user/bookmarks { articleId } (201 when
 * created, 200 when it already existed), DELETE /api/user/bookmarks/:articleId (404 when not bookmarked).
 */
import { Router } from "express";
import { requireUser, signedIn } from "../rest/auth-middleware";
import { readBody } from "../rest/validate";
import { addBookmark, listBookmarks, removeBookmark } from "./bookmarks.service";

export function bookmarksRestRouter(): Router {
  const r = Router();

  r.get("/user/bookmarks", requireUser, async (_req, res) => {
    res.json(await listBookmarks(signedIn(res).user));
  });

  r.post("/user/bookmarks", requireUser, async (req, res) => {
    const { articleId } = readBody(req.body, { articleId: "string" });
    const { bookmark, created } = await addBookmark(signedIn(res).user, articleId);
    res.status(created ? 201 : 200).json({ ...bookmark, created });
  });

  r.delete("/user/bookmarks/:articleId", requireUser, async (req, res) => {
    await removeBookmark(signedIn(res).user, String(req.params.articleId));
    res.json({ ok: true });
  });

  return r;
}
