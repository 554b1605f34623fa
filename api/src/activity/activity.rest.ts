/** GET /api/admin/activity-logs (spec §7): optional action, time (1h, 24h, 7d or hours) and search. */
import { Router } from "express";
import { Errors } from "../errors";
import { requireAdmin } from "../rest/auth-middleware";
import { readQueryString } from "../rest/validate";
import type { Services } from "../services";

const TIME_FILTERS: Record<string, number | null> = { all: null, "1h": 1, "24h": 24, "7d": 168 };

function parseHours(time: string | undefined, sinceHours: string | undefined): number | null {
  if (time !== undefined && time in TIME_FILTERS) return TIME_FILTERS[time];
  const raw = sinceHours ?? time;
  if (raw === undefined || raw === "") return null;
  if (!/^\d{1,6}$/.test(raw)) throw Errors.invalidField("time", "activity.timeInvalid");
  return Number(raw);
}

export function activityRestRouter(services: Services): Router {
  const r = Router();
  r.get("/admin/activity-logs", requireAdmin, async (req, res) => {
    const action = readQueryString(req.query, "action");
    const search = readQueryString(req.query, "search");
    const sinceHours = parseHours(
      readQueryString(req.query, "time"),
      readQueryString(req.query, "sinceHours"),
    );
    const limitRaw = readQueryString(req.query, "limit");
    const limit = limitRaw && /^\d{1,4}$/.test(limitRaw) ? Number(limitRaw) : undefined;
    res.json(await services.activity.list({ action, sinceHours, search, limit }));
  });
  return r;
}
