/** Bounds of shared conversations (issue 17); the README lists them. */

/** shares one user may hold at a time (revoking frees a place) */
export const SHARE_MAX_PER_USER = 100;
/** messages one snapshot may hold (a longer session is refused; the share reads at most one more: services.ts) */
export const SHARE_MAX_MESSAGES = 200;
/** characters of a snapshot's messages as JSON (the store's document limit is 16 MB) */
export const SHARE_MAX_CHARS = 2_000_000;
/** random bytes of a share id: 192 bits, base64url (32 characters) */
export const SHARE_ID_BYTES = 24;
/** shares the admin list shows (newest first) */
export const ADMIN_SHARES_MAX = 1000;
