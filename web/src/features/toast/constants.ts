/** Spec §9: a toast stays this long. */
export const TOAST_DURATION_MS = 5000;
/** Spec §9: swiping right this far dismisses a toast. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** Spec §9: F8 moves focus to the notification region. */
export const TOAST_HOTKEY = "F8";
