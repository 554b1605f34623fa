/** Groups the session list by day for the sidebar: I dag, I går, Sidste 7 dage, then by month. */

export type SessionGroupKey = "today" | "yesterday" | "week" | "older";

export interface SessionGroup<T> {
  key: SessionGroupKey;
  /** for "older": the first day of the month the group holds (local time); else null */
  month: Date | null;
  sessions: T[];
}

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

const DAY = 24 * 3600 * 1000;

/**
 * Sessions (already ordered newest first) grouped by their last activity relative to `now`, in local time.
 * Older sessions are grouped per calendar month so a long history stays scannable.
 */
export function groupSessions<T extends { lastUpdated: string }>(
  sessions: readonly T[],
  now: Date = new Date(),
): SessionGroup<T>[] {
  const today = startOfDay(now);
  const groups: SessionGroup<T>[] = [];
  for (const session of sessions) {
    const at = new Date(session.lastUpdated);
    const day = startOfDay(at);
    // DST days are 23 or 25 hours long: compare day starts with a rounded difference
    const daysAgo = Math.round((today - day) / DAY);
    const key: SessionGroupKey =
      daysAgo <= 0 ? "today" : daysAgo === 1 ? "yesterday" : daysAgo < 7 ? "week" : "older";
    const month = key === "older" ? new Date(at.getFullYear(), at.getMonth(), 1) : null;
    const last = groups.at(-1);
    if (last && last.key === key && last.month?.getTime() === month?.getTime()) last.sessions.push(session);
    else groups.push({ key, month, sessions: [session] });
  }
  return groups;
}
