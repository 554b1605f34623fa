/** The auth module's topic on the event bus (see events/bus.ts). */

declare module "../events/bus" {
  interface Topics {
    /**
     * A user's login sessions changed (logout, password change or reset, deletion): every process forgets its
     * cached sign-ins and re-checks that user's websockets. `origin`: the publishing process (it has done so).
     */
    SESSIONS_CHANGED: { userId: string; origin: string };
  }
}

export {};
