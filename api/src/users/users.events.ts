/** The users module's topics on the event bus (see events/bus.ts). */
import type { PreferencesView } from "./preferences.service";

declare module "../events/bus" {
  interface Topics {
    /** a user's preferences were saved (other tabs follow; the chat drops the cached answer language) */
    PREFERENCES_CHANGED: PreferencesView & { userId: string };
    /** a user and all their data are gone (after every feature's userDeleted hook has run) */
    USER_DELETED: { userId: string };
  }
}
