import { Alert, Box } from "@mui/material";
import { PageHeader } from "../components/PageHeader";
import { useAuth } from "../features/auth/hooks/useAuth";
import { usePreferences } from "../features/preferences/hooks/usePreferences";
import { AccountInfoCard } from "../features/profile/components/AccountInfoCard";
import { ChangePasswordCard } from "../features/profile/components/ChangePasswordCard";
import { PreferencesCard } from "../features/profile/components/PreferencesCard";
import { ProfileSkeleton } from "../features/profile/components/ProfileSkeleton";
import { useT } from "../i18n/i18n";

/** /profile: account information, preferences, password change. */
export default function ProfileRoute() {
  const t = useT();
  const { user } = useAuth();
  const { server, loading, error } = usePreferences();

  return (
    <>
      <PageHeader title={t("profile.title")} subtitle={t("profile.subtitle")} />
      {loading || !user ? (
        <ProfileSkeleton />
      ) : (
        <Box
          sx={{
            display: "grid",
            gap: 3,
            gridTemplateColumns: { xs: "1fr", md: "repeat(2, minmax(0, 1fr))" },
            alignItems: "start",
          }}
        >
          <AccountInfoCard user={user} />
          {error || !server ? (
            <Alert severity="error">{t("profile.prefs.loadFailed")}</Alert>
          ) : (
            <PreferencesCard loaded={server} />
          )}
          <Box sx={{ gridColumn: { md: "1 / -1" } }}>
            <ChangePasswordCard />
          </Box>
        </Box>
      )}
    </>
  );
}
