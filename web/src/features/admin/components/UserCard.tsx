import DeleteOutlineRoundedIcon from "@mui/icons-material/DeleteOutlineRounded";
import LockResetRoundedIcon from "@mui/icons-material/LockResetRounded";
import { Avatar, Box, Button, Card, CardContent, Chip, Stack, Typography } from "@mui/material";
import { breakableEmail } from "../../../components/BreakableEmail";
import { useI18n } from "../../../i18n/i18n";
import { useToast } from "../../toast/hooks/useToast";
import { useRelativeTime } from "../hooks/useRelativeTime";
import type { AdminUserItem } from "../lib/users";

/**
 * One user (spec §2): e-mail or username, name, badges, created and last active as relative time, counts, and the
 * reset and delete buttons. The protected admin's delete looks disabled but still answers with the spec's toast.
 */
export function UserCard({
  user,
  onReset,
  onDelete,
}: {
  user: AdminUserItem;
  onReset: (user: AdminUserItem) => void;
  onDelete: (user: AdminUserItem) => void;
}) {
  const { t } = useI18n();
  const relative = useRelativeTime();
  const { toast } = useToast();
  const title = user.email || user.username;
  const titleId = `admin-user-${user.id}`;
  const initial = (user.name || title).trim().charAt(0).toUpperCase();

  const onDeleteClick = () => {
    if (user.isProtected) {
      toast({
        title: t("admin.delete.protectedTitle"),
        description: t("admin.delete.protectedText"),
        variant: "destructive",
      });
      return;
    }
    onDelete(user);
  };

  return (
    <Card component="article" aria-labelledby={titleId} data-testid="admin-user-card">
      <CardContent
        sx={{ display: "flex", gap: 2, flexWrap: { xs: "wrap", sm: "nowrap" }, alignItems: "flex-start" }}
      >
        <Avatar aria-hidden="true" sx={{ bgcolor: "primary.main", color: "primary.contrastText" }}>
          {initial}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
            <Typography
              id={titleId}
              component="h3"
              sx={{ fontWeight: 600, overflowWrap: "anywhere", fontSize: "1rem" }}
            >
              {breakableEmail(title)}
            </Typography>
            {user.isAdmin && <Chip size="small" color="primary" label={t("admin.users.admin")} />}
            <Chip
              size="small"
              variant="outlined"
              color={user.isActive ? "success" : "default"}
              label={user.isActive ? t("admin.users.active") : t("admin.users.inactive")}
            />
          </Stack>
          {user.name && (
            <Typography color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
              {user.name}
              {user.email && user.username ? ` · @${user.username}` : ""}
            </Typography>
          )}
          <Box
            component="dl"
            sx={{
              m: 0,
              mt: 1,
              display: "grid",
              gridTemplateColumns: { xs: "1fr", sm: "repeat(2, minmax(0, 1fr))", lg: "3fr 3fr 2fr 2fr" },
              columnGap: 3,
              rowGap: 0.25,
              color: "text.secondary",
              fontSize: "0.875rem",
              "& dt": { display: "inline", fontWeight: 500 },
              "& dd": { display: "inline", m: 0, ml: 0.5 },
            }}
          >
            <div>
              <dt>{t("admin.users.created")}</dt>
              <dd>{relative(user.createdAt)}</dd>
            </div>
            <div>
              <dt>{t("admin.users.lastActive")}</dt>
              <dd>{user.lastLogin ? relative(user.lastLogin) : t("admin.users.neverLoggedIn")}</dd>
            </div>
            <div>
              <dt>{t("admin.users.conversations")}</dt>
              <dd>{user.chatSessionsCount}</dd>
            </div>
            <div>
              <dt>{t("admin.users.bookmarks")}</dt>
              <dd>{user.bookmarksCount}</dd>
            </div>
          </Box>
        </Box>
        <Stack
          direction={{ xs: "row", sm: "column" }}
          spacing={1}
          sx={{ flexShrink: 0, width: { xs: "100%", sm: "auto" } }}
        >
          <Button
            size="small"
            variant="outlined"
            startIcon={<LockResetRoundedIcon />}
            onClick={() => onReset(user)}
            aria-label={t("admin.reset.buttonFor", { user: title })}
          >
            {t("admin.reset.button")}
          </Button>
          <Button
            size="small"
            variant="outlined"
            color="error"
            startIcon={<DeleteOutlineRoundedIcon />}
            onClick={onDeleteClick}
            aria-disabled={user.isProtected || undefined}
            aria-label={t("admin.delete.buttonFor", { user: title })}
            sx={user.isProtected ? { opacity: 0.55, cursor: "not-allowed" } : undefined}
          >
            {t("admin.delete.button")}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
