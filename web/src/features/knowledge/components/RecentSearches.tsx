import { useQuery } from "@apollo/client/react";
import HistoryRoundedIcon from "@mui/icons-material/HistoryRounded";
import { Box, Typography } from "@mui/material";
import { useEffect } from "react";
import { TextChip } from "../../../components/TextChip";
import { useT } from "../../../i18n/i18n";
import { MyRecentSearchesQuery } from "../graphql/myRecentSearches.query";

const SHOWN = 6;

/** The user's last searches as one-click suggestions (distinct, newest first). */
export function RecentSearches({
  onPick,
  refreshKey,
}: {
  onPick: (query: string) => void;
  refreshKey?: string;
}) {
  const t = useT();
  const { data, refetch } = useQuery(MyRecentSearchesQuery, {
    variables: { limit: 20 },
    fetchPolicy: "cache-and-network",
  });
  // a finished search has been recorded by the server: read the list again
  useEffect(() => {
    if (refreshKey) void refetch();
  }, [refreshKey, refetch]);
  const seen = new Set<string>();
  const queries: string[] = [];
  for (const s of data?.myRecentSearches ?? []) {
    const key = s.query.toLocaleLowerCase("da");
    if (seen.has(key) || !s.query.trim()) continue;
    seen.add(key);
    queries.push(s.query);
    if (queries.length === SHOWN) break;
  }
  if (queries.length === 0) return null;
  return (
    <Box
      component="nav"
      aria-labelledby="knowledge-recent-title"
      sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center", mt: 1.5 }}
    >
      <Typography
        id="knowledge-recent-title"
        variant="body2"
        color="text.secondary"
        sx={{ display: "flex", alignItems: "center", gap: 0.5, mr: 0.5 }}
      >
        <HistoryRoundedIcon fontSize="small" aria-hidden="true" />
        {t("knowledge.recentSearches")}
      </Typography>
      {queries.map((q) => (
        <TextChip key={q} label={q} size="small" onClick={() => onPick(q)} variant="outlined" clickable />
      ))}
    </Box>
  );
}
