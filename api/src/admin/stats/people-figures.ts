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
import { ChatMessageModel } from "../../chat/chat.model";
import { UserModel } from "../../users/user.model";
import { fillDays } from "../copenhagen";
import { copenhagenDayOf } from "./chat-figures";
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

const questions = (since: Date) => ({ role: "user" as const, timestamp: { $gte: since } });
const logins = (since: Date) => ({ action: "login", timestamp: { $gte: since }, userId: { $ne: null } });

/** Distinct ids of users active since `since` (two distinct-queries in the store). */
async function activeIds(since: Date): Promise<Set<string>> {
  const [asked, signedIn] = await Promise.all([
    ChatMessageModel.distinct("userId", questions(since)),
    ActivityModel.distinct("userId", logins(since)),
  ]);
  return new Set([...asked, ...signedIn].map(String));
}

/** Which of these ids are existing users (`users`: every user id, one distinct-query per statistics run). */
function existing(ids: Set<string>, users: Set<string>): Set<string> {
  return new Set([...ids].filter((id) => users.has(id)));
}

/** (day, user) pairs of activity per Copenhagen day since `since`, grouped in the store. */
async function activeUsersPerDay(window: { days: string[]; since: Date }, userIds: Promise<Set<string>>) {
  const byDayAndUser = [
    { $group: { _id: { day: copenhagenDayOf("$timestamp"), user: "$userId" } } },
  ] as const;
  const [asked, signedIn] = await Promise.all([
    ChatMessageModel.aggregate<{ _id: { day: string; user: Types.ObjectId } }>([
      { $match: questions(window.since) },
      ...byDayAndUser,
    ]),
    ActivityModel.aggregate<{ _id: { day: string; user: Types.ObjectId } }>([
      { $match: logins(window.since) },
      ...byDayAndUser,
    ]),
  ]);
  const users = await userIds;
  const perDay = new Map<string, Set<string>>();
  for (const { _id } of [...asked, ...signedIn]) {
    const user = String(_id.user);
    if (!users.has(user)) continue;
    if (!perDay.has(_id.day)) perDay.set(_id.day, new Set());
    perDay.get(_id.day)?.add(user);
  }
  return fillDays(window.days, new Map([...perDay].map(([day, set]) => [day, set.size])));
}

export async function peopleFigures(
  now: Date,
  window: { days: string[]; since: Date },
  timings?: StatsTimings,
): Promise<PeopleFigures> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  // the ids of every user (a user count's worth of ids: $in over them is slower in the embedded store)
  const userIds = UserModel.distinct("_id").then((ids) => new Set(ids.map(String)));
  const [totalUsers, active, weekly, perDay] = await Promise.all([
    timed(timings, "totalUsers", () => UserModel.estimatedDocumentCount()),
    timed(timings, "activeUsers", async () =>
      existing(await activeIds(ago(ACTIVE_WINDOW_DAYS)), await userIds),
    ),
    timed(timings, "weeklyActiveUsers", async () =>
      existing(await activeIds(ago(WEEKLY_WINDOW_DAYS)), await userIds),
    ),
    timed(timings, "activeUsersPerDay", () => activeUsersPerDay(window, userIds)),
  ]);
  return {
    totalUsers,
    activeUsers: active.size,
    weeklyActiveUsers: weekly.size,
    activeUsersPerDay: perDay,
  };
}
