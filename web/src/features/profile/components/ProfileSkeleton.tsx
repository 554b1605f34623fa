import { Box, Card, CardContent, Skeleton } from "@mui/material";
import { useT } from "../../../i18n/i18n";
import { PROFILE_GRID_SX, PROFILE_WIDE_SX } from "./ProfileSection";

/** the page's cards and their placeholder rows */
const CARDS = [
  { name: "account", rows: 5, wide: false },
  { name: "preferences", rows: 4, wide: false },
  { name: "password", rows: 4, wide: true },
];

/** Shown while the preferences load: the page's own grid, so the cards do not move when they arrive. */
export function ProfileSkeleton() {
  const t = useT();
  return (
    <Box sx={PROFILE_GRID_SX} role="status" aria-label={t("profile.loading")} data-testid="profile-skeleton">
      {CARDS.map((card) => (
        <Card key={card.name} sx={card.wide ? PROFILE_WIDE_SX : undefined}>
          <CardContent>
            <Skeleton variant="text" width="35%" height={32} />
            <Skeleton variant="text" width="55%" />
            {Array.from({ length: card.rows }, (_, r) => r).map((r) => (
              <Skeleton key={r} variant="rounded" height={48} sx={{ mt: r === 0 ? 2 : 1.5 }} />
            ))}
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}
