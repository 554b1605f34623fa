/** The activity log's topic on the event bus (see events/bus.ts). */
import type { Scopes } from "../events/store-bus";
import type { ActivityEntry } from "./activity.service";

declare module "../events/bus" {
  interface Topics {
    /** each new activity-log entry (the admin's live activity tab) */
    ACTIVITY_LOGGED: ActivityEntry;
  }
}

/**
 * The one scope of ACTIVITY_LOGGED: the store bus writes new entries for other processes only while one of them
 * has an activityLogged subscriber (an admin on the activity tab); every question logs one.
 */
export const ACTIVITY_SCOPE = "all";
export const ACTIVITY_EVENT_SCOPES: Scopes = { ACTIVITY_LOGGED: () => ACTIVITY_SCOPE };
