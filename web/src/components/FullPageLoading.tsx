import { Box, CircularProgress, Typography } from "@mui/material";
import { useT } from "../i18n/i18n";

/** Shown while the sign-in state is checked or a screen's code loads. */
export function FullPageLoading() {
  const t = useT();
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ minHeight: "60vh", display: "flex", alignItems: "center", justifyContent: "center", gap: 2 }}
    >
      <CircularProgress size={24} aria-hidden="true" />
      <Typography color="text.secondary">{t("app.loading")}</Typography>
    </Box>
  );
}
