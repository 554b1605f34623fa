/**
 * The feature routers by the first segment of their paths, so a request is walked through the routers that have a
 * route under its first segment only, in their order: GET /api/knowledge no longer passes the ~26 route layers of
 * the auth, users, activity, admin, environment and chat routers before its own (each a path match), and no
 * router is entered to find nothing. Every feature keeps its full paths (/admin/notion/sync, /chat/shares):
 * features share prefixes, so they are not mounted under one each.
 *
 * The result is the same as walking all routers in order: a route can only match a path whose first segment is
 * its own (Express matches paths case-insensitively, so segments are compared in lower case). A router with a
 * layer whose first segment is not a plain word (a parameter, a pattern, a middleware without a path) is walked
 * for every path, in its place.
 */
import {
  type Router as ExpressRouter,
  type NextFunction,
  type Request,
  type Response,
  Router,
} from "express";

/** A first path segment Express matches literally: letters, digits, `-`, `_` and `.`. */
const PLAIN_SEGMENT = /^\/([A-Za-z0-9._-]+)(?:\/|$)/;

/** "/knowledge/search" → "knowledge"; null when the path's first segment is not plain. */
export function routeSegment(path: string): string | null {
  const m = PLAIN_SEGMENT.exec(path);
  return m ? m[1].toLowerCase() : null;
}

/** The first segments of a router's routes; null when one of its layers may match any path. */
export function segmentsOf(router: ExpressRouter): Set<string> | null {
  const segments = new Set<string>();
  for (const layer of router.stack) {
    const path = layer.route?.path;
    const segment = typeof path === "string" ? routeSegment(path) : null;
    if (segment === null) return null;
    segments.add(segment);
  }
  return segments;
}

/** The first segment of a request path, as routeSegment reads a route's ("" for "/"). */
function requestSegment(path: string): string {
  const end = path.indexOf("/", 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/** One middleware walking `routers` in order, each only for the paths under its routes' first segments. */
export function routeBySegment(routers: readonly ExpressRouter[]) {
  const owned = routers.map(segmentsOf);
  const groupOf = (segment: string | null): ExpressRouter | null => {
    const members = routers.filter((_, i) => {
      const s = owned[i];
      return s === null || (segment !== null && s.has(segment));
    });
    if (members.length === 0) return null;
    const group = Router();
    for (const r of members) group.use(r);
    return group;
  };
  const groups = new Map<string, ExpressRouter | null>();
  for (const s of owned)
    for (const segment of s ?? []) if (!groups.has(segment)) groups.set(segment, groupOf(segment));
  // paths under no route's segment: the routers that may match anything, if any
  const elsewhere = groupOf(null);
  return (req: Request, res: Response, next: NextFunction) => {
    const group = groups.get(requestSegment(req.path)) ?? elsewhere;
    if (!group) return next();
    group(req, res, next);
  };
}
