import { useQuery } from "@apollo/client/react";
import { Box, Chip, Popover, Typography } from "@mui/material";
import { useEffect, useId, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { ENVIRONMENT_CACHE_MS } from "../constants";
import { EnvironmentQuery } from "../graphql/environment.query";

// When the answer in the Apollo cache was fetched (the cache itself has no expiry).
let fetchedAt = 0;

/**
 * DEV/PROD badge with a details popup. The server answers the query only for the ENV_BADGE_USERNAME user;
 * for everyone else it fails and nothing is shown.
 */
export function EnvironmentBadge() {
  const t = useT();
  const popupId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [fetchPolicy] = useState<"cache-first" | "network-only">(() =>
    Date.now() - fetchedAt < ENVIRONMENT_CACHE_MS ? "cache-first" : "network-only",
  );
  const { data, error } = useQuery(EnvironmentQuery, { fetchPolicy, errorPolicy: "none" });
  useEffect(() => {
    if (data && fetchPolicy === "network-only") fetchedAt = Date.now();
  }, [data, fetchPolicy]);
  const env = error ? null : data?.environment;
  if (!env) return null;

  const isProd = env.environment.toUpperCase() === "PROD";
  const rows: [string, string][] = [
    [t("env.environment"), env.environment],
    [t("env.hostname"), env.hostname],
    [t("env.nodeEnv"), env.nodeEnv],
    [t("env.replOwner"), env.replOwner ?? t("env.none")],
  ];
  return (
    <>
      <Chip
        data-testid="env-badge"
        label={env.environment}
        size="small"
        clickable
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={t("env.badgeLabel", { environment: env.environment })}
        aria-haspopup="dialog"
        aria-expanded={Boolean(anchor)}
        aria-controls={anchor ? popupId : undefined}
        sx={{
          fontWeight: 700,
          letterSpacing: "0.04em",
          bgcolor: isProd ? "#b71c1c" : "#8a4b00",
          color: "#ffffff",
          "&:hover": { bgcolor: isProd ? "#8e1414" : "#6d3b00" },
        }}
      />
      <Popover
        id={popupId}
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "left" }}
        slotProps={{ paper: { role: "dialog", "aria-label": t("env.title"), sx: { p: 2, minWidth: 240 } } }}
      >
        <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
          {t("env.title")}
        </Typography>
        <Box
          component="dl"
          sx={{ m: 0, display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 0.5 }}
        >
          {rows.map(([label, value]) => (
            <Box key={label} sx={{ display: "contents" }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, fontFamily: "monospace" }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
      </Popover>
    </>
  );
}
