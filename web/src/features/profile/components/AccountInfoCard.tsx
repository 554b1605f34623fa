import BadgeOutlinedIcon from "@mui/icons-material/BadgeOutlined";
import { Box, Chip, Typography } from "@mui/material";
import { breakableEmail } from "../../../components/BreakableEmail";
import { useI18n } from "../../../i18n/i18n";
import { formatDate, formatRelative } from "../../../lib/dates";
import type { AuthUser } from "../../auth/hooks/useAuth";
import { ProfileSection } from "./ProfileSection";

/** Read-only account details (spec §2 card 1). */
export function AccountInfoCard({ user }: { user: AuthUser }) {
  const { t, language, locale } = useI18n();
  const rows: [string, string, string][] = [
    ["name", t("profile.account.name"), user.name],
    ["email", t("profile.account.email"), user.email],
    ["username", t("profile.account.username"), user.username],
  ];
  return (
    <ProfileSection
      id="account-title"
      icon={<BadgeOutlinedIcon color="primary" aria-hidden="true" />}
      title={t("profile.account.title")}
      subtitle={t("profile.account.subtitle")}
    >
      <Box component="dl" sx={{ m: 0, display: "grid", gap: 2 }}>
        {rows.map(([key, label, value]) => (
          <Box key={key}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography
              component="dd"
              data-testid={`account-${key}`}
              sx={{ m: 0, fontWeight: 500, overflowWrap: "anywhere" }}
            >
              {key === "email" ? breakableEmail(value) : value}
            </Typography>
          </Box>
        ))}
        <Box>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t("profile.account.role")}
          </Typography>
          <Box component="dd" sx={{ m: 0, mt: 0.5 }}>
            <Chip
              data-testid="account-role"
              size="small"
              label={user.isAdmin ? t("profile.role.admin") : t("profile.role.user")}
              color={user.isAdmin ? "primary" : "default"}
            />
          </Box>
        </Box>
        <Box>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t("profile.account.created")}
          </Typography>
          <Typography component="dd" variant="body2" data-testid="account-created" sx={{ m: 0 }}>
            {formatDate(user.createdAt, locale)}
            {user.lastLogin
              ? ` · ${t("profile.account.lastLogin", { when: formatRelative(user.lastLogin, language) })}`
              : ""}
          </Typography>
        </Box>
      </Box>
    </ProfileSection>
  );
}
