/**
 * The chat figures of the admin statistics, computed in the store (nothing is loaded into memory):
 *
 * - totalChatSessions: every chat session stored (chat_sessions), empty ones included.
 * - totalMessages: every chat message stored (chat_messages): questions and answers alike.
 * - todayMessages: chat messages with a timestamp since local midnight in Europe/Copenhagen (DST-correct).
 * - messagesPerDay: chat messages per Copenhagen day over the last 30 days, oldest first, zero-filled.
 *   (Both counted per day by ./day-rollups.ts.)
 * - avgSessionDuration: a session's duration is its last message's timestamp minus its first message's; the
 *   figure is the mean over every session with at least 2 messages, in whole seconds (0 when there is none).
 *   Computed from per-session roll-ups kept up to date at statistics time (./session-rollups.ts).
 */
import { ChatMessageModel, ChatSessionModel } from "../../chat/chat.model";
import { STATS_TIME_ZONE } from "../copenhagen";
import type { ChatDays } from "./day-rollups";
import { averageSessionDuration } from "./session-rollups";
import { type StatsTimings, timed } from "./timing";

export interface ChatFigures {
  totalChatSessions: number;
  totalMessages: number;
  todayMessages: number;
  messagesPerDay: Array<{ date: string; count: number }>;
  avgSessionDuration: number;
}

/** The store expression of a timestamp's Copenhagen day ("yyyy-MM-dd"). */
export const copenhagenDayOf = (field: string) => ({
  $dateToString: { format: "%Y-%m-%d", date: field, timezone: STATS_TIME_ZONE },
});

export async function chatFigures(chatDays: Promise<ChatDays>, timings?: StatsTimings): Promise<ChatFigures> {
  const [totalChatSessions, totalMessages, days, duration] = await Promise.all([
    timed(timings, "totalChatSessions", () => ChatSessionModel.estimatedDocumentCount()),
    timed(timings, "totalMessages", () => ChatMessageModel.estimatedDocumentCount()),
    chatDays,
    timed(timings, "avgSessionDuration", async () => {
      const d = await averageSessionDuration();
      if (timings && d.buildMs !== undefined) timings["rollupBuild (one-off)"] = d.buildMs;
      return d;
    }),
  ]);
  return {
    totalChatSessions,
    totalMessages,
    todayMessages: days.todayMessages,
    messagesPerDay: days.days.map((date, i) => ({ date, count: days.counts[i] })),
    avgSessionDuration: Math.round(duration.avgMs / 1000),
  };
}
