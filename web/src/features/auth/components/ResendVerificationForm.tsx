import { Typography } from "@mui/material";
import { useT } from "../../../i18n/i18n";
import { useResendVerification } from "../hooks/useVerification";
import { EmailForm } from "./EmailForm";

/** Asks for the e-mail address and sends a new verification link (after a failed verification). */
export function ResendVerificationForm() {
  const t = useT();
  const { resend, loading } = useResendVerification();
  return (
    <EmailForm
      id="resend-email"
      label={t("verify.resendSubmit")}
      submit={t("verify.resendSubmit")}
      pending={t("verify.resendPending")}
      loading={loading}
      send={async (email) => {
        await resend(email);
      }}
      intro={
        <Typography variant="body2" color="text.secondary">
          {t("verify.resendIntro")}
        </Typography>
      }
    />
  );
}
