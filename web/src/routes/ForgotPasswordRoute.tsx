import MarkEmailReadOutlinedIcon from "@mui/icons-material/MarkEmailReadOutlined";
import { Button, Link, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { EmailForm } from "../features/auth/components/EmailForm";
import { useForgotPassword } from "../features/auth/hooks/usePasswordReset";
import { useT } from "../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../i18n/serverMessage";

/** /forgot-password: e-mail form, then a confirmation with retry and back-to-login. */
export default function ForgotPasswordRoute() {
  const t = useT();
  const text = useServerMessage();
  const [sent, setSent] = useState<ServerMessage | null>(null);
  // "Prøv igen" shows the form again with the address the link went to
  const [lastEmail, setLastEmail] = useState("");
  const { requestReset, loading } = useForgotPassword();

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
      <EmailForm
        id="forgot-email"
        label={t("forgot.title")}
        submit={t("forgot.submit")}
        pending={t("forgot.pending")}
        loading={loading}
        send={async (email) => {
          setLastEmail(email);
          setSent(await requestReset(email));
        }}
        initialEmail={lastEmail}
        spacing={2.25}
      />
    </AuthPageLayout>
  );
}
