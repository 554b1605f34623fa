import CheckCircleOutlineRoundedIcon from "@mui/icons-material/CheckCircleOutlineRounded";
import ErrorOutlineRoundedIcon from "@mui/icons-material/ErrorOutlineRounded";
import { Box, Button, CircularProgress, Divider, Stack, Typography } from "@mui/material";
import { Link as RouterLink, useSearchParams } from "react-router-dom";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { ResendVerificationForm } from "../features/auth/components/ResendVerificationForm";
import { useVerifyEmail } from "../features/auth/hooks/useVerification";
import { useT } from "../i18n/i18n";
import { useServerMessage } from "../i18n/serverMessage";

/** /verify-email?token=…: verifies once, then offers login, or a new verification e-mail. */
export default function VerifyEmailRoute() {
  const t = useT();
  const text = useServerMessage();
  const [params] = useSearchParams();
  const state = useVerifyEmail(params.get("token"));

  if (state.kind === "loading") {
    return (
      <AuthPageLayout title={t("verify.title")}>
        <Box role="status" sx={{ display: "flex", alignItems: "center", gap: 2, py: 2 }}>
          <CircularProgress size={24} aria-hidden="true" />
          <Typography>{t("verify.loading")}</Typography>
        </Box>
      </AuthPageLayout>
    );
  }

  if (state.kind === "success") {
    return (
      <AuthPageLayout
        title={t("verify.successTitle")}
        icon={<CheckCircleOutlineRoundedIcon color="success" sx={{ fontSize: 52 }} aria-hidden="true" />}
      >
        <Stack spacing={2} sx={{ textAlign: "center" }} data-testid="verify-success">
          <Typography>{text(state.message)}</Typography>
          <Typography color="text.secondary">{t("verify.successText")}</Typography>
          <Button component={RouterLink} to="/login" variant="contained" size="large">
            {t("verify.goToLogin")}
          </Button>
        </Stack>
      </AuthPageLayout>
    );
  }

  return (
    <AuthPageLayout
      title={t("verify.failedTitle")}
      icon={<ErrorOutlineRoundedIcon color="error" sx={{ fontSize: 52 }} aria-hidden="true" />}
    >
      <Stack spacing={2.5} data-testid="verify-failed">
        <Typography role="alert" sx={{ textAlign: "center" }}>
          {text(state.message) || t(state.fallback)}
        </Typography>
        <Divider />
        <ResendVerificationForm />
        <Button component={RouterLink} to="/login" variant="text">
          {t("common.backToLogin")}
        </Button>
      </Stack>
    </AuthPageLayout>
  );
}
