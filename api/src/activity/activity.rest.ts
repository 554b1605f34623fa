/**
 * GET /api/admin/activity-logs (spec §7): optional action, time (1h, 24h, 7d or hours) and search; offset and
 * limit page through the filtered log (newest first) and X-Total-Count tells how many entries match.
 */
import { Router } from "express";
import { Errors } from "../errors";
import { requireAdmin } from "../rest/auth-middleware";
import { readQueryString } from "../rest/validate";
import type { Services } from "../services";
import { ACTIVITY_LIMIT_MAX, ACTIVITY_OFFSET_MAX, ACTIVITY_TIME_FILTERS } from "./activity.limits";

function parseHours(time: string | undefined, sinceHours: string | undefined): number | null {
  if (time !== undefined && time in ACTIVITY_TIME_FILTERS) return ACTIVITY_TIME_FILTERS[time];
  const raw = sinceHours ?? time;
  if (raw === undefined || raw === "") return null;
  if (!/^\d{1,6}$/.test(raw)) throw Errors.invalidField("time", "activity.timeInvalid");
  return Number(raw);
}

/** A non-negative whole number up to max, or undefined when absent; anything else is INVALID_INPUT. */
function readCount(raw: string | undefined, field: "limit" | "offset", max: number): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > max) {
    throw field === "limit"
      ? Errors.invalidField(field, "activity.limitInvalid", { max })
      : Errors.invalidField(field, "activity.offsetInvalid", { max });
  }
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
    const limit = readCount(readQueryString(req.query, "limit"), "limit", ACTIVITY_LIMIT_MAX);
    const offset = readCount(readQueryString(req.query, "offset"), "offset", ACTIVITY_OFFSET_MAX);
    const page = await services.activity.page({ action, sinceHours, search, limit, offset });
    res.setHeader("X-Total-Count", String(page.total));
    res.json(page.entries);
  });
  return r;
}
