import { useQuery } from "@apollo/client/react";
import BookmarkBorderRoundedIcon from "@mui/icons-material/BookmarkBorderRounded";
import ChatBubbleOutlineRoundedIcon from "@mui/icons-material/ChatBubbleOutlineRounded";
import ForumOutlinedIcon from "@mui/icons-material/ForumOutlined";
import InsightsRoundedIcon from "@mui/icons-material/InsightsRounded";
import PeopleAltOutlinedIcon from "@mui/icons-material/PeopleAltOutlined";
import QueryStatsRoundedIcon from "@mui/icons-material/QueryStatsRounded";
import TimerOutlinedIcon from "@mui/icons-material/TimerOutlined";
import { Box, Button, Skeleton } from "@mui/material";
import { lazy, Suspense } from "react";
import { useI18n } from "../../../i18n/i18n";
import { EmptyState } from "../../knowledge/components/EmptyState";
import { AdminStatsQuery } from "../graphql/adminStats.query";
import { roundedMinutes } from "../lib/stats";
import { FeedbackCard } from "./FeedbackCard";
import { KnowledgeGapsCard } from "./KnowledgeGapsCard";
import { RecentActivityCard } from "./RecentActivityCard";
import { StatCard, StatCardSkeleton } from "./StatCard";
import { TopCategoriesCard } from "./TopCategoriesCard";

// @mui/x-charts is large: its own chunk, loaded only when the statistics tab shows.
const StatsCharts = lazy(() => import("./StatsCharts"));

/** the figures at the top of the tab (the StatCards below) */
const STAT_CARDS = 6;
/** the rows a list card's placeholder shows (Seneste aktivitet shows up to 6 entries) */
const LIST_ROWS = 5;

const grid = {
  display: "grid",
  gap: 2,
  gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", lg: "repeat(3, minmax(0, 1fr))" },
} as const;
const twoColumns = {
  display: "grid",
  gap: 2,
  gridTemplateColumns: { xs: "1fr", md: "repeat(2, 1fr)" },
} as const;

/** Statistics tab (spec §2 plus charts, feedback and knowledge gaps). */
export function StatsTab() {
  const { t, locale } = useI18n();
  const { data, loading, error, refetch } = useQuery(AdminStatsQuery, { fetchPolicy: "cache-and-network" });
  const stats = data?.adminStats;
  const n = (value: number) => new Intl.NumberFormat(locale).format(value);

  if (!stats && loading) {
    // spec §2's eight skeleton cards, laid out as what they stand for: the six figures, the two lists under them
    return (
      <Box sx={{ display: "grid", gap: 2 }} aria-busy="true" aria-label={t("admin.loading")}>
        <Box sx={grid}>
          {Array.from({ length: STAT_CARDS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
            <StatCardSkeleton key={i} />
          ))}
        </Box>
        <Box sx={twoColumns}>
          <StatCardSkeleton rows={LIST_ROWS} />
          <StatCardSkeleton rows={LIST_ROWS} />
        </Box>
      </Box>
    );
  }
  if (!stats) {
    return (
      <EmptyState
        testId="admin-stats-empty"
        icon={<QueryStatsRoundedIcon />}
        title={t("admin.stats.emptyTitle")}
        text={t("admin.stats.emptyText")}
        action={
          error ? (
            <Button variant="outlined" onClick={() => void refetch()}>
              {t("admin.retry")}
            </Button>
          ) : undefined
        }
      />
    );
  }

  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <Box sx={grid}>
        <StatCard
          icon={<PeopleAltOutlinedIcon />}
          label={t("admin.stats.totalUsers")}
          value={n(stats.totalUsers)}
          detail={t("admin.stats.activeUsers", { n: stats.activeUsers })}
        />
        <StatCard
          icon={<ForumOutlinedIcon />}
          label={t("admin.stats.sessions")}
          value={n(stats.totalChatSessions)}
          detail={t("admin.stats.todayMessages", { n: stats.todayMessages })}
        />
        <StatCard
          icon={<ChatBubbleOutlineRoundedIcon />}
          label={t("admin.stats.totalMessages")}
          value={n(stats.totalMessages)}
        />
        <StatCard
          icon={<BookmarkBorderRoundedIcon />}
          label={t("admin.stats.bookmarks")}
          value={n(stats.totalBookmarks)}
          detail={t("admin.stats.bookmarksDetail")}
        />
        <StatCard
          icon={<InsightsRoundedIcon />}
          label={t("admin.stats.weekly")}
          value={n(stats.weeklyActiveUsers)}
          detail={t("admin.stats.weeklyDetail")}
        />
        <StatCard
          icon={<TimerOutlinedIcon />}
          label={t("admin.stats.avgSession")}
          value={t("admin.stats.minutes", { n: roundedMinutes(stats.avgSessionDuration) })}
        />
      </Box>
      <Box sx={twoColumns}>
        <TopCategoriesCard categories={stats.topCategories} />
        <RecentActivityCard entries={stats.recentActivity} />
      </Box>
      <Suspense
        fallback={
          <Box sx={twoColumns}>
            <Skeleton variant="rounded" height={320} />
            <Skeleton variant="rounded" height={320} />
          </Box>
        }
      >
        <StatsCharts messagesPerDay={stats.messagesPerDay} activeUsersPerDay={stats.activeUsersPerDay} />
      </Suspense>
      <Box sx={twoColumns}>
        <FeedbackCard feedback={stats.feedback} />
        <KnowledgeGapsCard />
      </Box>
    </Box>
  );
}
