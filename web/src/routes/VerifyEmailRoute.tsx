import { useMutation } from "@apollo/client/react";
import CheckCircleOutlineRoundedIcon from "@mui/icons-material/CheckCircleOutlineRounded";
import ErrorOutlineRoundedIcon from "@mui/icons-material/ErrorOutlineRounded";
import { Box, Button, CircularProgress, Divider, Stack, Typography } from "@mui/material";
import { useEffect, useRef, useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router-dom";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { ResendVerificationForm } from "../features/auth/components/ResendVerificationForm";
import { VerifyEmailMutation } from "../features/auth/graphql/verifyEmail.mutation";
import type { MessageKey } from "../i18n/da";
import { useT } from "../i18n/i18n";
import { useServerText } from "../i18n/serverText";
import { toAppError } from "../lib/errors";

// Server texts are kept as sent (Danish) and translated when shown; `fallback` is the UI's own text when there is none.
type State =
  | { kind: "loading" }
  | { kind: "success"; message: string }
  | { kind: "failed"; message: string | null; code?: string | null; fallback: MessageKey };

/** /verify-email?token=…: verifies once, then offers login, or a new verification e-mail. */
export default function VerifyEmailRoute() {
  const t = useT();
  const serverText = useServerText();
  const [params] = useSearchParams();
  const token = params.get("token");
  const [state, setState] = useState<State>(() =>
    token ? { kind: "loading" } : { kind: "failed", message: null, fallback: "verify.noToken" },
  );
  const [verify] = useMutation(VerifyEmailMutation);
  const started = useRef<string | null>(null);

  useEffect(() => {
    // A token can be used once: never send it twice (StrictMode runs effects twice in development).
    if (!token || started.current === token) return;
    started.current = token;
    verify({ variables: { token } })
      .then(({ data }) => {
        const result = data?.verifyEmail;
        if (result?.verified) setState({ kind: "success", message: result.message });
        else setState({ kind: "failed", message: result?.message || null, fallback: "verify.failedDefault" });
      })
      .catch((err: unknown) => {
        const e = toAppError(err);
        setState(
          e.network
            ? { kind: "failed", message: null, fallback: "verify.networkError" }
            : { kind: "failed", message: e.message || null, code: e.code, fallback: "verify.failedDefault" },
        );
      });
  }, [token, verify]);

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
          <Typography>{serverText(state.message)}</Typography>
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
          {serverText(state.message, state.code) || t(state.fallback)}
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
