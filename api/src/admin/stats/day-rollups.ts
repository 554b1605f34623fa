/**
 * The chat's per-day figures of the last CHART_DAYS Copenhagen days without grouping every message of the
 * window on each statistics run: message counts per day (messagesPerDay, todayMessages) and the users who asked
 * a question per day and per window (activeUsers, weeklyActiveUsers, activeUsersPerDay). Definitions unchanged.
 *
 * - A day's message count is always counted live: a range count over the timestamp index (no grouping).
 * - Who asked on a day before today comes from a roll-up in `stats_rollups`
 *   `{ _id: "day:yyyy-MM-dd", kind: "day", n, askers: [userId], at }`, valid while the day still holds exactly
 *   `n` messages. Messages are written with the time they are created, so a past day only changes when messages
 *   are deleted (a session or a user removed) or arrive late around midnight: either changes its count, and the
 *   day is recomputed (count first, then who asked; an idempotent upsert, safe with several processes).
 * - Today, and the part of a window before the first whole day, are asked directly (a day's worth of messages).
 * Users that no longer exist are dropped by the callers, as before.
 */
import mongoose from "mongoose";
import { ChatMessageModel } from "../../chat/chat.model";
import { copenhagenDay, copenhagenMidnight } from "../copenhagen";

interface DayDoc {
  _id: string;
  kind: "day";
  day: string;
  n: number;
  askers: mongoose.Types.ObjectId[];
  at: Date;
}

export interface ChatDays {
  /** the window's days, oldest first (today last) */
  days: string[];
  /** messages per day; today's up to the next midnight */
  counts: number[];
  /** messages since today's midnight (no upper bound: the statistics' "today") */
  todayMessages: number;
  /** ids of users who asked a question on each day */
  askersPerDay: Set<string>[];
  /** ids of users who asked a question at or after each `froms` instant */
  askersSince: Set<string>[];
}

const rollups = () => (mongoose.connection.db as mongoose.mongo.Db).collection<DayDoc>("stats_rollups");
const range = (from: Date, to?: Date) => ({ timestamp: to ? { $gte: from, $lt: to } : { $gte: from } });
const count = (from: Date, to?: Date) => ChatMessageModel.countDocuments(range(from, to));
const askers = async (from: Date, to?: Date): Promise<mongoose.Types.ObjectId[]> =>
  ChatMessageModel.distinct("userId", { role: "user", ...range(from, to) });
const ids = (list: unknown[]) => new Set(list.map(String));

/** The start of each day of the window and of the day after it (Copenhagen midnights, DST-correct). */
function dayStarts(window: { days: string[]; since: Date }): Date[] {
  const starts = [window.since];
  for (let i = 0; i < window.days.length; i++) {
    // 36 h after a midnight is always inside the next day (days last 23 to 25 hours)
    starts.push(copenhagenMidnight(new Date(starts[i].getTime() + 36 * 3_600_000)));
  }
  return starts;
}

/** Who asked on a day before today: from its roll-up while the day's count is unchanged, else recomputed. */
async function pastDayAskers(day: string, n: number, from: Date, to: Date, doc?: DayDoc) {
  if (doc && doc.n === n) return ids(doc.askers);
  const list = await askers(from, to);
  const fresh = { kind: "day" as const, day, n, askers: list, at: new Date() };
  await rollups()
    .replaceOne({ _id: `day:${day}` }, fresh, { upsert: true })
    .catch((e: { code?: number }) => {
      // another process upserted the same day at the same moment: its value is as good as ours
      if (e.code !== 11000) throw e;
    });
  return ids(list);
}

export async function chatDays(window: { days: string[]; since: Date }, froms: Date[]): Promise<ChatDays> {
  const { days } = window;
  const starts = dayStarts(window);
  const today = days.length - 1;
  if (copenhagenDay(starts[today]) !== days[today]) throw new Error("copenhagen day boundaries out of step");
  // counted first: a roll-up is only trusted for a day whose count it matches
  const [counts, todayMessages, docs] = await Promise.all([
    Promise.all(days.map((_, i) => count(starts[i], starts[i + 1]))),
    count(starts[today]),
    rollups()
      .find({ _id: { $in: days.slice(0, today).map((d) => `day:${d}`) } })
      .toArray(),
  ]);
  const byDay = new Map(docs.map((d) => [d.day, d]));
  const [past, todayAskers, laterAskers, edges] = await Promise.all([
    Promise.all(
      days
        .slice(0, today)
        .map((day, i) => pastDayAskers(day, counts[i], starts[i], starts[i + 1], byDay.get(day))),
    ),
    askers(starts[today], starts[today + 1]),
    askers(starts[today]),
    // a window starting today is asked directly; else the part before its first whole day of the chart
    Promise.all(
      froms.map((from) => {
        if (from >= starts[today]) return askers(from);
        const first = starts.findIndex((s) => s >= from);
        return from < starts[first] ? askers(from, starts[first]) : Promise.resolve([]);
      }),
    ),
  ]);
  const askersPerDay = [...past, ids(todayAskers)];
  const askersSince = froms.map((from, w) => {
    if (from >= starts[today]) return ids(edges[w]);
    const set = ids([...edges[w], ...laterAskers]);
    for (let i = 0; i < today; i++) if (starts[i] >= from) for (const id of past[i]) set.add(id);
    return set;
  });
  return { days, counts, todayMessages, askersPerDay, askersSince };
}
