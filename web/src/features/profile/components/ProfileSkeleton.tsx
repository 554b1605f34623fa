import { Card, CardContent, Skeleton, Stack } from "@mui/material";
import { useT } from "../../../i18n/i18n";

/** Shown while the preferences load. */
export function ProfileSkeleton() {
  const t = useT();
  return (
    <Stack spacing={3} role="status" aria-label={t("profile.loading")} data-testid="profile-skeleton">
      {[0, 1, 2].map((i) => (
        <Card key={i}>
          <CardContent>
            <Skeleton variant="text" width="35%" height={32} />
            <Skeleton variant="text" width="55%" />
            <Skeleton variant="rounded" height={48} sx={{ mt: 2 }} />
            <Skeleton variant="rounded" height={48} sx={{ mt: 1.5 }} />
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
