import { useMutation } from "@apollo/client/react";
import MarkEmailReadOutlinedIcon from "@mui/icons-material/MarkEmailReadOutlined";
import { Box, Button, Link, Stack, TextField, Typography } from "@mui/material";
import { type FormEvent, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { validateEmail } from "../../../api/src/users/user.rules";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { ForgotPasswordMutation } from "../features/auth/graphql/forgotPassword.mutation";
import { useToast } from "../features/toast/hooks/useToast";
import { useT } from "../i18n/i18n";
import { useServerText } from "../i18n/serverText";
import { toAppError } from "../lib/errors";

/** /forgot-password: e-mail form, then a confirmation with retry and back-to-login. */
export default function ForgotPasswordRoute() {
  const t = useT();
  const serverText = useServerText();
  const { toast } = useToast();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [forgot, { loading }] = useMutation(ForgotPasswordMutation);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return document.getElementById("forgot-email")?.focus();
    try {
      const { data } = await forgot({ variables: { email: email.trim() } });
      setSent(data?.forgotPassword.message ?? "");
    } catch (err) {
      const e = toAppError(err);
      toast({ title: t("common.error"), description: serverText(e.message, e.code), variant: "destructive" });
    }
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
          {sent && <Typography>{serverText(sent)}</Typography>}
          <Typography color="text.secondary">{t("forgot.sentText")}</Typography>
          <Button variant="outlined" onClick={() => setSent(null)}>
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
            helperText={serverText(error)}
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
