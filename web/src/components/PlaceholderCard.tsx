import { Box, Card, CardContent, Chip, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { useT } from "../i18n/i18n";

/** A screen that arrives in a later issue: says what will be here. */
export function PlaceholderCard({
  icon,
  text,
  children,
}: {
  icon: ReactNode;
  text: string;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <Card>
      <CardContent
        sx={{
          p: { xs: 3, md: 5 },
          display: "flex",
          gap: 3,
          alignItems: "flex-start",
          flexWrap: { xs: "wrap", sm: "nowrap" },
        }}
      >
        <Box
          aria-hidden="true"
          sx={{
            width: 56,
            height: 56,
            borderRadius: 3,
            display: "grid",
            placeItems: "center",
            bgcolor: "action.selected",
            color: "primary.main",
            flexShrink: 0,
          }}
        >
          {icon}
        </Box>
        <Box>
          <Chip
            label={t("placeholder.soon")}
            size="small"
            color="primary"
            variant="outlined"
            sx={{ mb: 1 }}
          />
          <Typography sx={{ maxWidth: 640 }}>{text}</Typography>
          {children && <Box sx={{ mt: 2.5 }}>{children}</Box>}
        </Box>
      </CardContent>
    </Card>
  );
}
