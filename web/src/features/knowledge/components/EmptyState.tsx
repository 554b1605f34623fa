import { Box, Typography } from "@mui/material";
import type { ReactNode } from "react";

/** A calm, centred empty state: icon, title and a hint (spec §8 texts). */
export function EmptyState({
  icon,
  title,
  text,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  text?: string;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <Box
      data-testid={testId}
      role="status"
      sx={{
        textAlign: "center",
        py: { xs: 5, md: 7 },
        px: 2,
        border: 1,
        borderStyle: "dashed",
        borderColor: "divider",
        borderRadius: 3,
        color: "text.secondary",
      }}
    >
      <Box
        aria-hidden="true"
        sx={{ fontSize: 44, color: "text.secondary", mb: 1, "& svg": { fontSize: 44 } }}
      >
        {icon}
      </Box>
      <Typography variant="h2" sx={{ fontSize: "1.15rem", color: "text.primary", mb: 0.75 }}>
        {title}
      </Typography>
      {text && <Typography sx={{ maxWidth: 460, mx: "auto" }}>{text}</Typography>}
      {action && <Box sx={{ mt: 2 }}>{action}</Box>}
    </Box>
  );
}
