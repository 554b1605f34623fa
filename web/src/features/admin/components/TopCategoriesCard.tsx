import { Box, LinearProgress, Stack, Typography } from "@mui/material";
import type { AdminStatsQuery } from "../../../gql/graphql";
import { useT } from "../../../i18n/i18n";
import { SectionCard, SectionEmpty } from "./SectionCard";

type Category = AdminStatsQuery["adminStats"]["topCategories"][number];

/** 'Populære kategorier' with the spec's 'N visninger' (English: '1 view' for one) and a bar relative to the most viewed. */
export function TopCategoriesCard({ categories }: { categories: readonly Category[] }) {
  const t = useT();
  const max = Math.max(1, ...categories.map((c) => c.count));
  return (
    <SectionCard
      id="admin-top-categories"
      title={t("admin.stats.topCategories")}
      testId="admin-top-categories"
    >
      {categories.length === 0 ? (
        <SectionEmpty>{t("admin.stats.noCategories")}</SectionEmpty>
      ) : (
        <Stack component="ol" spacing={1.5} sx={{ listStyle: "none", p: 0, m: 0 }}>
          {categories.map((c) => (
            <li key={c.category}>
              <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1 }}>
                <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>{c.category}</Typography>
                <Typography color="text.secondary" sx={{ flexShrink: 0 }}>
                  {t("admin.stats.views", { n: c.count })}
                </Typography>
              </Box>
              <LinearProgress
                variant="determinate"
                value={(c.count / max) * 100}
                aria-hidden="true"
                sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
              />
            </li>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
