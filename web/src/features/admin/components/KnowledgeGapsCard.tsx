import { useQuery } from "@apollo/client/react";
import { Box, Chip, Skeleton, Stack, Typography } from "@mui/material";
import { useI18n } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";
import { KnowledgeGapsQuery } from "../graphql/knowledgeGaps.query";
import { SectionCard, SectionEmpty } from "./SectionCard";

/** Knowledge gaps shown on the statistics tab. */
export const KNOWLEDGE_GAPS_SHOWN = 10;

/** Questions the sources could not answer, grouped by the server: question, how often, latest date. */
export function KnowledgeGapsCard() {
  const { t, locale } = useI18n();
  const { data, error } = useQuery(KnowledgeGapsQuery, {
    variables: { limit: KNOWLEDGE_GAPS_SHOWN },
    fetchPolicy: "cache-and-network",
  });
  const gaps = data?.knowledgeGaps;
  return (
    <SectionCard
      id="admin-gaps"
      title={t("admin.stats.gaps")}
      subtitle={t("admin.stats.gapsText")}
      testId="admin-gaps"
    >
      {!gaps ? (
        error ? (
          <SectionEmpty>{t("admin.stats.gapsFailed")}</SectionEmpty>
        ) : (
          <Stack spacing={1}>
            <Skeleton />
            <Skeleton />
            <Skeleton />
          </Stack>
        )
      ) : gaps.length === 0 ? (
        <SectionEmpty>{t("admin.stats.noGaps")}</SectionEmpty>
      ) : (
        <Stack component="ol" spacing={1.25} sx={{ listStyle: "none", p: 0, m: 0 }}>
          {gaps.map((g) => (
            <li key={g.question}>
              <Box sx={{ display: "flex", gap: 1.5, alignItems: "flex-start" }}>
                <Chip
                  size="small"
                  label={t("admin.stats.gapCount", { n: g.count })}
                  sx={{ flexShrink: 0, minWidth: 44 }}
                />
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ overflowWrap: "anywhere" }}>{g.question}</Typography>
                  <Typography color="text.secondary" sx={{ fontSize: "0.8rem" }}>
                    {t("admin.stats.gapLatest", {
                      date: formatDate(g.lastAskedAt, locale, {
                        day: "numeric",
                        month: "short",
                        year: "numeric",
                      }),
                    })}
                  </Typography>
                </Box>
              </Box>
            </li>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
