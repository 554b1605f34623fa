/** GET /api/environment (spec §7): environment, hostname, deployment { repl_owner, node_env }. */
import { Router } from "express";
import { locals, requireUser, signedIn } from "../rest/auth-middleware";
import { getEnvironment } from "./environment.service";

export function environmentRestRouter(): Router {
  const r = Router();
  r.get("/environment", requireUser, (_req, res) => {
    const env = getEnvironment(locals(res).services.config, signedIn(res).user.username);
    res.json({
      environment: env.environment,
      hostname: env.hostname,
      deployment: { repl_owner: env.replOwner, node_env: env.nodeEnv },
    });
  });
  return r;
}
