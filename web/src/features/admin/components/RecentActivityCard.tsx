import { Box, Stack, Typography } from "@mui/material";
import type { AdminStatsQuery } from "../../../gql/graphql";
import { useI18n } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { useRelativeTime } from "../hooks/useRelativeTime";
import { activityMessage } from "../lib/activity";
import { SectionCard, SectionEmpty } from "./SectionCard";

type Recent = AdminStatsQuery["adminStats"]["recentActivity"][number];

/** Spec §9: the statistics card shows at most 6 entries. */
export const RECENT_ACTIVITY_MAX = 6;

/** 'Seneste aktivitet': description (by key in the user's language), user e-mail and relative time. */
export function RecentActivityCard({ entries }: { entries: readonly Recent[] }) {
  const { t } = useI18n();
  const relative = useRelativeTime();
  const text = useServerMessage();
  const shown = entries.slice(0, RECENT_ACTIVITY_MAX);
  return (
    <SectionCard
      id="admin-recent-activity"
      title={t("admin.stats.recentActivity")}
      testId="admin-recent-activity"
    >
      {shown.length === 0 ? (
        <SectionEmpty>{t("admin.stats.noActivity")}</SectionEmpty>
      ) : (
        <Stack component="ul" spacing={1.25} sx={{ listStyle: "none", p: 0, m: 0 }}>
          {shown.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; the list is replaced whole
            <li key={i}>
              <Box
                sx={{
                  display: "flex",
                  flexDirection: { xs: "column", sm: "row" },
                  justifyContent: "space-between",
                  gap: { xs: 0, sm: 1 },
                }}
              >
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ overflowWrap: "anywhere" }}>{text(activityMessage(e))}</Typography>
                  {e.userEmail && (
                    <Typography color="text.secondary" sx={{ fontSize: "0.85rem", overflowWrap: "anywhere" }}>
                      {e.userEmail}
                    </Typography>
                  )}
                </Box>
                <Typography color="text.secondary" sx={{ fontSize: "0.85rem", flexShrink: 0 }}>
                  {relative(e.timestamp)}
                </Typography>
              </Box>
            </li>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
