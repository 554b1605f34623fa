/** Users tab rules. */
import type { AdminUsersQuery } from "../../../gql/graphql";

/** One user as the users tab reads it. */
export type AdminUserItem = AdminUsersQuery["adminUsers"][number];

/** Cards rendered at first; "Vis flere" adds this many more (long lists stay fast). */
export const USERS_PAGE_SIZE = 30;
/** Same bound as the API (USER_SEARCH_MAX_LENGTH). */
export const USER_SEARCH_MAX_LENGTH = 200;
/** Typing settles this long before the server is asked. */
export const USER_SEARCH_DEBOUNCE_MS = 250;
