/** One card of the profile page: an icon, a heading (h2, the section's accessible name) and a subtitle. */
import { Card, CardContent, CardHeader } from "@mui/material";
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
