/** Spec §9: the environment answer is reused for 5 minutes (and never retried). */
export const ENVIRONMENT_CACHE_MS = 5 * 60 * 1000;
