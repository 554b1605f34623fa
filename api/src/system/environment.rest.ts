/** GET /api/environment (spec §7): environment, hostname, deployment { repl_owner, node_env }. */
import { Router } from "express";
import { requireUser, signedIn } from "../rest/auth-middleware";
import type { Services } from "../services";
import { getEnvironment } from "./environment.service";

export function environmentRestRouter(services: Services): Router {
  const r = Router();
  r.get("/environment", requireUser, (_req, res) => {
    const env = getEnvironment(services.config, signedIn(res).user.username);
    res.json({
      environment: env.environment,
      hostname: env.hostname,
      deployment: { repl_owner: env.replOwner, node_env: env.nodeEnv },
    });
  });
  return r;
}
