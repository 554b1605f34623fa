import { Alert, Box } from "@mui/material";
import { PageHeader } from "../components/PageHeader";
import { useAuth } from "../features/auth/hooks/useAuth";
import { usePreferences } from "../features/preferences/hooks/usePreferences";
import { AccountInfoCard } from "../features/profile/components/AccountInfoCard";
import { ChangePasswordCard } from "../features/profile/components/ChangePasswordCard";
import { PreferencesCard } from "../features/profile/components/PreferencesCard";
import { PROFILE_GRID_SX, PROFILE_WIDE_SX } from "../features/profile/components/ProfileSection";
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
        <Box sx={PROFILE_GRID_SX}>
          <AccountInfoCard user={user} />
          {error || !server ? (
            <Alert severity="error">{t("profile.prefs.loadFailed")}</Alert>
          ) : (
            <PreferencesCard loaded={server} />
          )}
          <Box sx={PROFILE_WIDE_SX}>
            <ChangePasswordCard />
          </Box>
        </Box>
      )}
    </>
  );
}
