/** Spec §9: recheck the status this long after a login. */
export const AUTH_RECHECK_AFTER_LOGIN_MS = 100;
/** Spec §9: the welcome shows this long before the app goes to /. */
export const REDIRECT_AFTER_LOGIN_MS = 200;
