/** The activity log's bounds and filters (one place; the service, REST and GraphQL read them). */
export const ACTIVITY_LIMIT_DEFAULT = 200;
export const ACTIVITY_LIMIT_MAX = 1000;
/** The longest search (after trimming) and action filter: the texts searched and action names are far shorter. */
export const ACTIVITY_SEARCH_MAX_LENGTH = 200;
export const ACTIVITY_ACTION_MAX_LENGTH = 100;
/** The admin's time filters (spec §8: all, 1h, 24h, 7d = 168 hours) as hours; null = no limit. */
export const ACTIVITY_TIME_FILTERS: Readonly<Record<string, number | null>> = {
  all: null,
  "1h": 1,
  "24h": 24,
  "7d": 168,
};

/** The largest offset a page may start at (the log is read newest first; older entries are found by filter). */
export const ACTIVITY_OFFSET_MAX = 100_000;
