/** REST compatibility routes for preferences and user administration (spec §7). */
import { Router } from "express";
import { locals, requireAdmin, requireUser, signedIn } from "../rest/auth-middleware";
import { readBody, readQueryString } from "../rest/validate";
import type { AdminUserView } from "./users.service";

/** Both spellings the old clients read (spec §3). */
function presentAdminUser(u: AdminUserView) {
  return {
    ...u,
    is_active: u.isActive,
    chat_sessions_count: u.chatSessionsCount,
    bookmarks_count: u.bookmarksCount,
  };
}

export function usersRestRouter(): Router {
  const r = Router();

  r.get("/user/preferences", requireUser, async (_req, res) => {
    const prefs = await locals(res).services.preferences.get(String(signedIn(res).user._id));
    res.json(prefs);
  });

  r.put("/user/preferences", requireUser, async (req, res) => {
    const input = readBody(req.body, { language: "string?", theme: "string?", notifications: "boolean?" });
    const prefs = await locals(res).services.preferences.update(String(signedIn(res).user._id), input);
    res.json({ ...prefs, message: "Dine indstillinger er blevet gemt" });
  });

  r.get("/admin/users", requireAdmin, async (req, res) => {
    const search = readQueryString(req.query, "search");
    const users = await locals(res).services.users.listUsers(signedIn(res).user, search);
    res.json(users.map(presentAdminUser));
  });

  r.delete("/admin/users/:id", requireAdmin, async (req, res) => {
    await locals(res).services.users.deleteUser(signedIn(res).user, String(req.params.id));
    res.json({ ok: true, message: "Brugeren er blevet fjernet fra systemet" });
  });

  r.post("/admin/reset-password", requireAdmin, async (req, res) => {
    const { userId, newPassword } = readBody(req.body, { userId: "string", newPassword: "string" });
    await locals(res).services.users.adminResetPassword(signedIn(res).user, userId, newPassword);
    res.json({ ok: true, message: "Brugerens password er blevet opdateret" });
  });

  return r;
}
