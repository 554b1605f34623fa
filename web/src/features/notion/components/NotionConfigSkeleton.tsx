import { Box, CircularProgress, Skeleton, Typography } from "@mui/material";
import { useT } from "../../../i18n/i18n";

/** Spec §2: the panel while it loads, a skeleton and 'Indlæser admin konfiguration...'. */
export function NotionConfigSkeleton() {
  const t = useT();
  return (
    <Box aria-busy="true" data-testid="notion-loading">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, mb: 2 }} role="status">
        <CircularProgress size={18} aria-hidden="true" />
        <Typography color="text.secondary">{t("notion.loading")}</Typography>
      </Box>
      <Box sx={{ display: "grid", gap: 1.5, gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, 1fr)" } }}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} variant="rounded" height={72} />
        ))}
      </Box>
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} variant="rounded" height={64} sx={{ mt: 1.5 }} />
      ))}
    </Box>
  );
}
