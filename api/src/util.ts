/** Escape a user-supplied string for use inside a RegExp (search boxes). */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
