/** The Notion sync's topic on the event bus (see events/bus.ts). */
import type { SyncRunView } from "./notion.run";

declare module "../events/bus" {
  interface Topics {
    /** a sync run's progress: on start, every few hundred ms while it runs, and when it ends */
    NOTION_SYNC_PROGRESS: SyncRunView;
  }
}
