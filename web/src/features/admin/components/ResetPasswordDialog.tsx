import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from "@mui/material";
import { PASSWORD_MAX, validatePassword } from "@vidensbank/shared";
import { type FormEvent, useState } from "react";
import { PasswordField } from "../../../components/PasswordField";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { useResetPassword } from "../hooks/useResetPassword";
import type { AdminUserItem } from "../lib/users";

/**
 * 'Nulstil password' (spec §2, §4, §5): the rule message shows once something is typed and confirm stays disabled
 * below the minimum; 'Ændrer...' while pending; the typed password is cleared on close and on success.
 */
export function ResetPasswordDialog({ user, onClose }: { user: AdminUserItem | null; onClose: () => void }) {
  const t = useT();
  const text = useServerMessage();
  const [password, setPassword] = useState("");
  const { resetPassword, loading } = useResetPassword();
  const problem = validatePassword(password);
  const shownProblem = password.length > 0 && problem ? text(problem) : undefined;

  const close = () => {
    if (loading) return;
    setPassword("");
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user || problem || loading) return;
    if (await resetPassword(user.id, password)) {
      setPassword("");
      onClose();
    }
  };

  return (
    <Dialog
      open={user !== null}
      onClose={close}
      fullWidth
      maxWidth="xs"
      aria-labelledby="admin-reset-title"
      aria-describedby="admin-reset-text"
      slotProps={{ paper: { component: "form", onSubmit: submit } }}
    >
      <DialogTitle id="admin-reset-title">{t("admin.reset.title")}</DialogTitle>
      <DialogContent>
        <DialogContentText id="admin-reset-text" sx={{ mb: 2, overflowWrap: "anywhere" }}>
          {t("admin.reset.text", { user: user ? user.email || user.username : "" })}
        </DialogContentText>
        <PasswordField
          id="admin-reset-password"
          label={t("admin.reset.field")}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          autoFocus
          fullWidth
          error={Boolean(shownProblem)}
          helperText={shownProblem}
          slotProps={{ htmlInput: { maxLength: PASSWORD_MAX } }}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={loading}>
          {t("admin.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={Boolean(problem) || loading}>
          {loading ? t("admin.reset.pending") : t("admin.reset.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
