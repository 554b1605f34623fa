import { Box, Button, Stack, TextField, Typography } from "@mui/material";
import { type Message, validateEmail } from "@vidensbank/shared";
import { type FormEvent, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { useResendVerification } from "../hooks/useVerification";

/** Asks for the e-mail address and sends a new verification link (after a failed verification). */
export function ResendVerificationForm() {
  const t = useT();
  const text = useServerMessage();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<Message | null>(null);
  const { resend, loading } = useResendVerification();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return document.getElementById("resend-email")?.focus();
    await resend(email);
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t("verify.resendSubmit")}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {t("verify.resendIntro")}
        </Typography>
        <TextField
          id="resend-email"
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
          {loading ? t("verify.resendPending") : t("verify.resendSubmit")}
        </Button>
      </Stack>
    </Box>
  );
}
