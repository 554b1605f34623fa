/**
 * The people figures of the admin statistics. "Active" means: the user signed in (an activity-log `login`
 * entry) or asked the chat a question (a chat message with role `user`) in the window. Only users that still
 * exist count. Each source is one store aggregation over the window (distinct user ids, at most one per user):
 *
 * - totalUsers: every account in users, verified or not.
 * - activeUsers: active within the last 30 days (30 × 24 hours before now).
 * - weeklyActiveUsers: active within the last 7 days (7 × 24 hours before now).
 * - activeUsersPerDay: for each of the last 30 Copenhagen days (oldest first, zero-filled), the number of
 *   distinct users active that day.
 */
import type { Types } from "mongoose";
import { ActivityModel } from "../../activity/activity.model";
import { UserModel } from "../../users/user.model";
import { fillDays } from "../copenhagen";
import { copenhagenDayOf } from "./chat-figures";
import type { ChatDays } from "./day-rollups";
import { type StatsTimings, timed } from "./timing";

export const ACTIVE_WINDOW_DAYS = 30;
export const WEEKLY_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface PeopleFigures {
  totalUsers: number;
  activeUsers: number;
  weeklyActiveUsers: number;
  activeUsersPerDay: Array<{ date: string; count: number }>;
}

// (sign-ins without a user id group under null and are dropped with the users that do not exist: leaving
// `userId: { $ne: null }` out keeps the filter on the store's native range path instead of its general matcher)
const logins = (since: Date) => ({ action: "login", timestamp: { $gte: since } });

/** Distinct ids of users active since `since`: who asked (from ./day-rollups.ts) or signed in. */
async function activeIds(since: Date, asked: Promise<Set<string>>): Promise<Set<string>> {
  const signedIn = await ActivityModel.distinct("userId", logins(since));
  return new Set([...(await asked), ...signedIn.map(String)]);
}

/** Which of these ids are existing users (`users`: every user id, one distinct-query per statistics run). */
function existing(ids: Set<string>, users: Set<string>): Set<string> {
  return new Set([...ids].filter((id) => users.has(id)));
}

/** Who asked per day (./day-rollups.ts) and (day, user) pairs of sign-ins grouped in the store. */
async function activeUsersPerDay(
  window: { days: string[]; since: Date },
  chatDays: Promise<ChatDays>,
  userIds: Promise<Set<string>>,
) {
  const signedIn = await ActivityModel.aggregate<{ _id: { day: string; user: Types.ObjectId } }>([
    { $match: logins(window.since) },
    { $group: { _id: { day: copenhagenDayOf("$timestamp"), user: "$userId" } } },
  ]);
  const [days, users] = await Promise.all([chatDays, userIds]);
  const perDay = new Map<string, Set<string>>(
    days.days.map((day, i) => [day, new Set(days.askersPerDay[i])]),
  );
  for (const { _id } of signedIn) perDay.get(_id.day)?.add(String(_id.user));
  for (const set of perDay.values()) for (const id of set) if (!users.has(id)) set.delete(id);
  return fillDays(window.days, new Map([...perDay].map(([day, set]) => [day, set.size])));
}

/** The instants the active windows start: [30 days ago, 7 days ago] (askersSince of ChatDays in this order). */
export function activeWindows(now: Date): Date[] {
  return [ACTIVE_WINDOW_DAYS, WEEKLY_WINDOW_DAYS].map((days) => new Date(now.getTime() - days * DAY_MS));
}

export async function peopleFigures(
  now: Date,
  window: { days: string[]; since: Date },
  chatDays: Promise<ChatDays>,
  timings?: StatsTimings,
): Promise<PeopleFigures> {
  const [monthAgo, weekAgo] = activeWindows(now);
  // the ids of every user (a user count's worth of ids: $in over them is slower in the embedded store)
  const userIds = UserModel.distinct("_id").then((ids) => new Set(ids.map(String)));
  const [totalUsers, active, weekly, perDay] = await Promise.all([
    timed(timings, "totalUsers", () => UserModel.estimatedDocumentCount()),
    timed(timings, "activeUsers", async () =>
      existing(
        await activeIds(
          monthAgo,
          chatDays.then((d) => d.askersSince[0]),
        ),
        await userIds,
      ),
    ),
    timed(timings, "weeklyActiveUsers", async () =>
      existing(
        await activeIds(
          weekAgo,
          chatDays.then((d) => d.askersSince[1]),
        ),
        await userIds,
      ),
    ),
    timed(timings, "activeUsersPerDay", () => activeUsersPerDay(window, chatDays, userIds)),
  ]);
  return {
    totalUsers,
    activeUsers: active.size,
    weeklyActiveUsers: weekly.size,
    activeUsersPerDay: perDay,
  };
}
