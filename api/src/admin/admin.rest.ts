/**
 * GET /api/admin/stats (spec §7): the spec §3 fields exactly (topCategories: [{ category, count }],
 * recentActivity: [{ description, userEmail, timestamp }], each also with its messageKey and messageParams) plus
 * messagesPerDay, activeUsersPerDay and feedback.
 */
import { Router } from "express";
import { requireAdmin } from "../rest/auth-middleware";
import type { Services } from "../services";

export function adminRestRouter(services: Services): Router {
  const r = Router();
  r.get("/admin/stats", requireAdmin, async (_req, res) => {
    res.json(await services.admin.stats());
  });
  return r;
}
