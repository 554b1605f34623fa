import { Box, Paper, Typography } from "@mui/material";
import { useI18n } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";
import type { SummaryFigures } from "../lib/notion";

/** Spec §2: available databases, active sources, pages of the selected ones, and the last update ('Aldrig'). */
export function NotionSummary({
  figures,
  lastUpdated,
}: {
  figures: SummaryFigures;
  lastUpdated: string | null;
}) {
  const { t, locale } = useI18n();
  const items = [
    { key: "available", label: t("notion.summary.available"), value: String(figures.available) },
    { key: "active", label: t("notion.summary.active"), value: String(figures.active) },
    { key: "pages", label: t("notion.summary.totalPages"), value: figures.totalPages.toLocaleString(locale) },
    {
      key: "updated",
      label: t("notion.summary.lastUpdated"),
      value: lastUpdated
        ? formatDate(lastUpdated, locale, { day: "numeric", month: "numeric", year: "numeric" })
        : t("notion.summary.never"),
    },
  ];
  return (
    <Box
      component="dl"
      aria-label={t("notion.summary.label")}
      sx={{
        m: 0,
        display: "grid",
        gap: 1.5,
        gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", md: "repeat(4, minmax(0, 1fr))" },
      }}
    >
      {items.map((item) => (
        <Paper
          key={item.key}
          variant="outlined"
          sx={{
            p: 1.5,
            display: "flex",
            flexDirection: "column-reverse",
            // the figures at the top of every tile, whether its label takes one line or two
            justifyContent: "flex-end",
            bgcolor: "background.default",
          }}
          data-testid={`notion-summary-${item.key}`}
        >
          <Typography component="dt" variant="body2" color="text.secondary">
            {item.label}
          </Typography>
          <Typography
            component="dd"
            sx={{
              m: 0,
              // a date (26.11.2026, 26/11/2026) fits one line of a quarter- or half-width tile
              fontSize: item.key === "updated" ? "1.25rem" : "1.5rem",
              lineHeight: item.key === "updated" ? 1.56 : 1.3,
              fontWeight: 700,
              overflowWrap: "anywhere",
            }}
          >
            {item.value}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}
