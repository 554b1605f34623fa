import MarkEmailReadOutlinedIcon from "@mui/icons-material/MarkEmailReadOutlined";
import { Box, Button, Link, Stack, TextField, Typography } from "@mui/material";
import { type Message, validateEmail } from "@vidensbank/shared";
import { type FormEvent, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { useForgotPassword } from "../features/auth/hooks/usePasswordReset";
import { useT } from "../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../i18n/serverMessage";

/** /forgot-password: e-mail form, then a confirmation with retry and back-to-login. */
export default function ForgotPasswordRoute() {
  const t = useT();
  const text = useServerMessage();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<Message | null>(null);
  const [sent, setSent] = useState<ServerMessage | null>(null);
  const { requestReset, loading } = useForgotPassword();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return document.getElementById("forgot-email")?.focus();
    setSent(await requestReset(email));
  };

  const backToLogin = (
    <Link component={RouterLink} to="/login">
      {t("common.backToLogin")}
    </Link>
  );

  if (sent !== null) {
    return (
      <AuthPageLayout
        title={t("forgot.sentTitle")}
        icon={<MarkEmailReadOutlinedIcon color="primary" sx={{ fontSize: 48 }} aria-hidden="true" />}
        footer={backToLogin}
      >
        <Stack spacing={2} sx={{ textAlign: "center" }} data-testid="forgot-sent">
          {sent.text && <Typography>{text(sent)}</Typography>}
          <Typography color="text.secondary">{t("forgot.sentText")}</Typography>
          <Button variant="outlined" size="large" onClick={() => setSent(null)}>
            {t("forgot.retry")}
          </Button>
        </Stack>
      </AuthPageLayout>
    );
  }

  return (
    <AuthPageLayout title={t("forgot.title")} subtitle={t("forgot.subtitle")} footer={backToLogin}>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t("forgot.title")}>
        <Stack spacing={2.25}>
          <TextField
            id="forgot-email"
            label={t("common.email")}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={Boolean(error)}
            helperText={text(error)}
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={loading}>
            {loading ? t("forgot.pending") : t("forgot.submit")}
          </Button>
        </Stack>
      </Box>
    </AuthPageLayout>
  );
}
