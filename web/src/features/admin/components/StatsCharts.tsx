import { Box, useTheme } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { LineChart } from "@mui/x-charts/LineChart";
import type { AdminStatsQuery } from "../../../gql/graphql";
import { useI18n } from "../../../i18n/i18n";
import { shortDay } from "../lib/stats";
import { SectionCard } from "./SectionCard";

type Days = AdminStatsQuery["adminStats"]["messagesPerDay"];

const CHART_HEIGHT = 260;

/** A chart with its figures also as text under it (for screen readers and a quick read). */
function ChartFigure({ summary, children }: { summary: string; children: React.ReactNode }) {
  return (
    <Box component="figure" sx={{ m: 0 }}>
      {children}
      <Box component="figcaption" sx={{ color: "text.secondary", fontSize: "0.85rem" }}>
        {summary}
      </Box>
    </Box>
  );
}

/**
 * Messages per day and active users per day for the last 30 days (Europe/Copenhagen days from the server). Loaded
 * lazily by StatsTab: @mui/x-charts stays out of every other chunk.
 */
export default function StatsCharts({
  messagesPerDay,
  activeUsersPerDay,
}: {
  messagesPerDay: Days;
  activeUsersPerDay: Days;
}) {
  const { t, locale } = useI18n();
  // the app's own colours (not the chart library's palette), so the charts match the theme in light and dark
  const { palette } = useTheme();
  const sum = (days: Days) => days.reduce((acc, d) => acc + d.count, 0);
  const peak = (days: Days) => days.reduce((acc, d) => Math.max(acc, d.count), 0);
  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "repeat(2, 1fr)" } }}>
      <SectionCard
        id="admin-chart-messages"
        title={t("admin.stats.messagesPerDay")}
        subtitle={t("admin.stats.last30Days")}
        testId="admin-chart-messages"
      >
        <ChartFigure
          summary={t("admin.stats.messagesSummary", { n: sum(messagesPerDay), max: peak(messagesPerDay) })}
        >
          <BarChart
            height={CHART_HEIGHT}
            xAxis={[
              {
                scaleType: "band",
                data: messagesPerDay.map((d) => shortDay(d.date, locale)),
                tickLabelInterval: (_, i) => i % 7 === 0,
              },
            ]}
            yAxis={[{ tickMinStep: 1 }]}
            series={[
              {
                data: messagesPerDay.map((d) => d.count),
                label: t("admin.stats.messages"),
                color: palette.primary.main,
              },
            ]}
            hideLegend
            skipAnimation
            margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
          />
        </ChartFigure>
      </SectionCard>
      <SectionCard
        id="admin-chart-active"
        title={t("admin.stats.activeUsersPerDay")}
        subtitle={t("admin.stats.last30Days")}
        testId="admin-chart-active"
      >
        <ChartFigure summary={t("admin.stats.activeSummary", { max: peak(activeUsersPerDay) })}>
          <LineChart
            height={CHART_HEIGHT}
            xAxis={[
              {
                scaleType: "point",
                data: activeUsersPerDay.map((d) => shortDay(d.date, locale)),
                tickLabelInterval: (_, i) => i % 7 === 0,
              },
            ]}
            yAxis={[{ tickMinStep: 1 }]}
            series={[
              {
                data: activeUsersPerDay.map((d) => d.count),
                label: t("admin.stats.activeUsersLabel"),
                area: true,
                curve: "linear",
                color: palette.secondary.main,
                showMark: false,
              },
            ]}
            hideLegend
            skipAnimation
            margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
          />
        </ChartFigure>
      </SectionCard>
    </Box>
  );
}
