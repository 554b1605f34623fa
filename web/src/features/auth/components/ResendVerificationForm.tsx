import { useMutation } from "@apollo/client/react";
import { Box, Button, Stack, TextField, Typography } from "@mui/material";
import { type FormEvent, useState } from "react";
import { validateEmail } from "../../../../../api/src/users/user.rules";
import { useT } from "../../../i18n/i18n";
import { useServerText } from "../../../i18n/serverText";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import { ResendVerificationMutation } from "../graphql/resendVerification.mutation";

/** Asks for the e-mail address and sends a new verification link (after a failed verification). */
export function ResendVerificationForm() {
  const t = useT();
  const serverText = useServerText();
  const { toast } = useToast();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [resend, { loading }] = useMutation(ResendVerificationMutation);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return document.getElementById("resend-email")?.focus();
    try {
      const { data } = await resend({ variables: { email: email.trim() } });
      if (data?.resendVerification.ok) {
        toast({
          title: t("verify.resendSuccess"),
          description: serverText(data.resendVerification.message),
          variant: "success",
        });
      } else {
        toast({
          title: t("verify.resendFailed"),
          description: serverText(data?.resendVerification.message),
          variant: "destructive",
        });
      }
    } catch (err) {
      const e = toAppError(err);
      toast({
        title: e.network ? t("verify.resendNetworkError") : t("verify.resendFailed"),
        description: serverText(e.message, e.code),
        variant: "destructive",
      });
    }
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
          helperText={serverText(error)}
          required
        />
        <Button type="submit" variant="contained" disabled={loading}>
          {loading ? t("verify.resendPending") : t("verify.resendSubmit")}
        </Button>
      </Stack>
    </Box>
  );
}
