import { Box, Card, CardContent, Skeleton, Typography } from "@mui/material";
import type { ReactNode } from "react";

/** One figure of the statistics tab: label, value and a line under it. */
export function StatCard({
  icon,
  label,
  value,
  detail,
}: {
  icon: ReactNode;
  label: string;
  value: string | number;
  detail?: string;
}) {
  return (
    <Card component="section" aria-label={label} data-testid="admin-stat-card" sx={{ height: "100%" }}>
      <CardContent>
        <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "flex-start", gap: 1 }}>
          <Typography component="h3" color="text.secondary" sx={{ fontSize: "0.9rem", fontWeight: 500 }}>
            {label}
          </Typography>
          <Box aria-hidden="true" sx={{ color: "primary.main", display: "flex" }}>
            {icon}
          </Box>
        </Box>
        <Typography sx={{ fontSize: "1.8rem", fontWeight: 700, lineHeight: 1.2, mt: 0.5 }}>
          {value}
        </Typography>
        {detail && (
          <Typography color="text.secondary" sx={{ fontSize: "0.85rem", mt: 0.25 }}>
            {detail}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** The loading placeholder of a StatCard, or (with `rows`) of a list card: its title and that many rows. */
export function StatCardSkeleton({ rows }: { rows?: number }) {
  return (
    <Card data-testid="admin-stat-skeleton" sx={{ height: "100%" }}>
      <CardContent>
        {rows === undefined ? (
          <>
            <Skeleton width="60%" />
            <Skeleton width="40%" height={44} />
            <Skeleton width="70%" />
          </>
        ) : (
          <>
            <Skeleton width="45%" height={32} sx={{ mb: 1 }} />
            {Array.from({ length: rows }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
              <Skeleton key={i} height={40} />
            ))}
          </>
        )}
      </CardContent>
    </Card>
  );
}
