import CheckCircleOutlineRoundedIcon from "@mui/icons-material/CheckCircleOutlineRounded";
import LinkOffRoundedIcon from "@mui/icons-material/LinkOffRounded";
import { Box, Button, Stack, Typography } from "@mui/material";
import { validatePasswordReset } from "@vidensbank/shared";
import { type FormEvent, useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router-dom";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { PasswordField } from "../components/PasswordField";
import { useResetPassword } from "../features/auth/hooks/usePasswordReset";
import { useT } from "../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../i18n/serverMessage";
import { focusFirstError, toFieldErrors } from "../lib/forms";

const FIELDS = ["newPassword", "confirmPassword"] as const;

/** /reset-password?token=…: new password + confirmation, then a success view; without a token 'Ugyldig link'. */
export default function ResetPasswordRoute() {
  const t = useT();
  const text = useServerMessage();
  const [params] = useSearchParams();
  const token = params.get("token");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<ServerMessage | null>(null);
  const { resetPassword, loading } = useResetPassword();

  if (!token) {
    return (
      <AuthPageLayout
        title={t("reset.invalidTitle")}
        icon={<LinkOffRoundedIcon color="error" sx={{ fontSize: 48 }} aria-hidden="true" />}
      >
        <Stack spacing={2} sx={{ textAlign: "center" }} data-testid="reset-invalid">
          <Typography>{t("reset.invalidText")}</Typography>
          <Button component={RouterLink} to="/forgot-password" variant="contained" size="large">
            {t("reset.requestNew")}
          </Button>
          <Button component={RouterLink} to="/login">
            {t("common.backToLogin")}
          </Button>
        </Stack>
      </AuthPageLayout>
    );
  }

  if (done !== null) {
    return (
      <AuthPageLayout
        title={t("reset.successTitle")}
        icon={<CheckCircleOutlineRoundedIcon color="success" sx={{ fontSize: 52 }} aria-hidden="true" />}
      >
        <Stack spacing={2} sx={{ textAlign: "center" }} data-testid="reset-success">
          {done.text && <Typography>{text(done)}</Typography>}
          <Typography color="text.secondary">{t("reset.successText")}</Typography>
          <Button component={RouterLink} to="/login" variant="contained" size="large">
            {t("verify.goToLogin")}
          </Button>
        </Stack>
      </AuthPageLayout>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = toFieldErrors(validatePasswordReset({ newPassword, confirmPassword }), text);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError("reset", FIELDS, found);
    const result = await resetPassword(token, newPassword);
    if (result.done) setDone(result.done);
    else setErrors(result.fieldErrors);
  };

  return (
    <AuthPageLayout title={t("reset.title")} subtitle={t("reset.subtitle")}>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t("reset.title")}>
        <Stack spacing={2.25}>
          <PasswordField
            id="reset-newPassword"
            label={t("reset.newPassword")}
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
            error={Boolean(errors.newPassword)}
            helperText={errors.newPassword}
            required
          />
          <PasswordField
            id="reset-confirmPassword"
            label={t("reset.confirmPassword")}
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
            error={Boolean(errors.confirmPassword)}
            helperText={errors.confirmPassword}
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={loading}>
            {loading ? t("reset.pending") : t("reset.submit")}
          </Button>
        </Stack>
      </Box>
    </AuthPageLayout>
  );
}
