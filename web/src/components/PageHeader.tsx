import { Box, Typography } from "@mui/material";
import type { ReactNode } from "react";

/** The title block at the top of a signed-in page. */
export function PageHeader({
  title,
  subtitle,
  action,
}: {
  title: string;
  subtitle?: string;
  action?: ReactNode;
}) {
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "flex-end",
        justifyContent: "space-between",
        gap: 2,
        mb: { xs: 3, md: 4 },
        flexWrap: "wrap",
      }}
    >
      <Box>
        <Typography variant="h1" sx={{ fontSize: { xs: "1.6rem", md: "2rem" } }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" sx={{ mt: 0.75 }}>
            {subtitle}
          </Typography>
        )}
      </Box>
      {action}
    </Box>
  );
}
