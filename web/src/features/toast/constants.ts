/** Spec §9: a toast stays this long. */
export const TOAST_DURATION_MS = 5000;
/** Spec §9: a dismissed toast is hidden at once and dropped from memory after this delay. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** Spec §9: swiping right this far dismisses a toast. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** Spec §9: F8 moves focus to the notification region. */
export const TOAST_HOTKEY = "F8";
