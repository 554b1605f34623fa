import { Card, CardContent, Typography } from "@mui/material";
import type { ReactNode } from "react";

/** A titled card section of the statistics tab. */
export function SectionCard({
  id,
  title,
  subtitle,
  children,
  testId,
}: {
  id: string;
  title: string;
  subtitle?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card component="section" aria-labelledby={id} data-testid={testId} sx={{ height: "100%" }}>
      <CardContent>
        <Typography id={id} component="h2" variant="h3" sx={{ fontSize: "1.1rem" }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" sx={{ fontSize: "0.875rem" }}>
            {subtitle}
          </Typography>
        )}
        <div style={{ marginTop: 12 }}>{children}</div>
      </CardContent>
    </Card>
  );
}

/** The quiet one-line empty text inside a section. */
export function SectionEmpty({ children }: { children: ReactNode }) {
  return (
    <Typography color="text.secondary" role="status" sx={{ py: 2, textAlign: "center" }}>
      {children}
    </Typography>
  );
}
