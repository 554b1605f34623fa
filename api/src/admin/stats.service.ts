/**
 * The admin statistics (spec §3 "Admin stats", §2 statistics tab, plus the charts, feedback and knowledge gaps
 * of issue 14). Each figure group is its own module under stats/ with its definition written there; this
 * service runs them side by side and shapes one answer. Everything is counted in the store (aggregations,
 * counts, distinct) — no collection is read into memory.
 *
 * - totalBookmarks: every stored bookmark (user_bookmarks).
 * - topCategories: the knowledge feature's category views (an article opened counts one view for its
 *   category), most viewed first, at most TOP_CATEGORIES_SHOWN.
 * - recentActivity: the newest RECENT_ACTIVITY_SHOWN activity-log entries (text by key, and in Danish).
 */
import { type ActivityEntry, pageActivity } from "../activity/activity.service";
import { BookmarkModel } from "../bookmarks/bookmark.model";
import { lastCopenhagenDays } from "./copenhagen";
import { groupKnowledgeGaps, type KnowledgeGapView, type RawGap } from "./gaps";
import { type ChatFigures, chatFigures } from "./stats/chat-figures";
import { chatDays } from "./stats/day-rollups";
import { type FeedbackFigures, feedbackFigures } from "./stats/feedback-figures";
import { activeWindows, type PeopleFigures, peopleFigures } from "./stats/people-figures";
import { type StatsTimings, timed } from "./stats/timing";

export const TOP_CATEGORIES_SHOWN = 6;
export const RECENT_ACTIVITY_SHOWN = 6;
export const CHART_DAYS = 30;
/** How many of the newest recorded gaps the report groups. */
export const GAPS_SCANNED = 2000;
export const GAPS_LIMIT_DEFAULT = 20;
export const GAPS_LIMIT_MAX = 100;

export type AdminStatsView = PeopleFigures &
  ChatFigures & {
    totalBookmarks: number;
    topCategories: Array<{ category: string; count: number }>;
    recentActivity: Array<
      Pick<ActivityEntry, "description" | "messageKey" | "messageParams" | "userEmail" | "timestamp">
    >;
    feedback: FeedbackFigures;
  };

export interface AdminDeps {
  /** the most viewed categories (knowledge feature) */
  topCategories(limit: number): Promise<Array<{ category: string; count: number }>>;
  /** the newest recorded knowledge gaps (chat feature), newest first */
  recentGaps(limit: number): Promise<RawGap[]>;
}

export class AdminService {
  constructor(private readonly deps: AdminDeps) {}

  /** Every figure, computed now. `timings` (optional) collects each figure's time in ms. */
  async stats(opts: { now?: Date; timings?: StatsTimings } = {}): Promise<AdminStatsView> {
    const now = opts.now ?? new Date();
    const { timings } = opts;
    const window = lastCopenhagenDays(CHART_DAYS, now);
    const days = timed(timings, "chatDays", () => chatDays(window, activeWindows(now)));
    const [people, chat, totalBookmarks, topCategories, recent, feedback] = await Promise.all([
      peopleFigures(now, window, days, timings),
      chatFigures(days, timings),
      timed(timings, "totalBookmarks", () => BookmarkModel.estimatedDocumentCount()),
      timed(timings, "topCategories", () => this.deps.topCategories(TOP_CATEGORIES_SHOWN)),
      timed(timings, "recentActivity", () =>
        pageActivity({ limit: RECENT_ACTIVITY_SHOWN, withTotal: false }),
      ),
      feedbackFigures(timings),
    ]);
    return {
      ...people,
      ...chat,
      totalBookmarks,
      topCategories,
      recentActivity: recent.entries.map((e) => ({
        description: e.description,
        messageKey: e.messageKey,
        messageParams: e.messageParams,
        userEmail: e.userEmail,
        timestamp: e.timestamp,
      })),
      feedback,
    };
  }

  /** The knowledge-gap report: recent unanswered questions grouped by similarity, biggest groups first. */
  async knowledgeGaps(limit: number | null | undefined = GAPS_LIMIT_DEFAULT): Promise<KnowledgeGapView[]> {
    const n = Math.min(Math.max(Math.trunc(limit ?? GAPS_LIMIT_DEFAULT), 1), GAPS_LIMIT_MAX);
    return groupKnowledgeGaps(await this.deps.recentGaps(GAPS_SCANNED)).slice(0, n);
  }
}
