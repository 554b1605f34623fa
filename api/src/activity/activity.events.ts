/** The activity log's topic on the event bus (see events/bus.ts). */
import type { ActivityEntry } from "./activity.service";

declare module "../events/bus" {
  interface Topics {
    /** each new activity-log entry (the admin's live activity tab) */
    ACTIVITY_LOGGED: ActivityEntry;
  }
}
