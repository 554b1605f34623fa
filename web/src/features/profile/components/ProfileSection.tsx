/** One card of the profile page: an icon, a heading (h2, the section's accessible name) and a subtitle. */
import { Card, CardContent, CardHeader, type SxProps, type Theme } from "@mui/material";
import type { ReactNode } from "react";

interface ProfileSectionProps {
  /** the heading's id; the section is labelled by it */
  id: string;
  icon: ReactNode;
  title: string;
  subtitle: string;
  children: ReactNode;
}

export function ProfileSection({ id, icon, title, subtitle, children }: ProfileSectionProps) {
  return (
    <Card component="section" aria-labelledby={id}>
      <CardHeader
        avatar={icon}
        title={title}
        subheader={subtitle}
        slotProps={{
          title: { id, component: "h2", variant: "h3" },
          subheader: { color: "text.secondary" },
        }}
      />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
}

/** The profile's cards: two columns from md (account, preferences), one on phones; the skeleton uses it too. */
export const PROFILE_GRID_SX: SxProps<Theme> = {
  display: "grid",
  gap: 3,
  gridTemplateColumns: { xs: "1fr", md: "repeat(2, minmax(0, 1fr))" },
  alignItems: "start",
};

/** A card across both columns (the password change). */
export const PROFILE_WIDE_SX: SxProps<Theme> = { gridColumn: { md: "1 / -1" } };
