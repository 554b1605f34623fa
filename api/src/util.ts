/** Escape a user-supplied string for use inside a RegExp (search boxes). */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `fn` (pure: the same key, the same result) with its results for the last `max` keys kept; the oldest kept goes
 * first. `kept()` says how many are kept (tests).
 */
export function keepResults<R>(
  fn: (key: string) => R,
  max: number,
): ((key: string) => R) & { kept(): number } {
  const results = new Map<string, R>();
  const get = (key: string): R => {
    if (results.has(key)) return results.get(key) as R;
    const result = fn(key);
    results.set(key, result);
    if (results.size > max) results.delete(results.keys().next().value as string);
    return result;
  };
  return Object.assign(get, { kept: () => results.size });
}
