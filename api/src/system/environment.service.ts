/** Environment details for the DEV/PROD badge; only the ENV_BADGE_USERNAME user may read them. */
import os from "node:os";
import type { AppConfig } from "../config";
import { Errors } from "../errors";

export interface EnvironmentView {
  environment: "DEV" | "PROD";
  hostname: string;
  nodeEnv: string;
  replOwner: string | null;
}

export function canSeeEnvironment(config: AppConfig, username: string): boolean {
  return !!config.envBadgeUsername && username.toLowerCase() === config.envBadgeUsername.toLowerCase();
}

/** Throws FORBIDDEN for everyone but the badge user. */
export function getEnvironment(config: AppConfig, username: string): EnvironmentView {
  if (!canSeeEnvironment(config, username)) throw Errors.forbidden();
  return {
    environment: config.nodeEnv === "production" ? "PROD" : "DEV",
    hostname: os.hostname(),
    nodeEnv: config.nodeEnv,
    replOwner: null,
  };
}
