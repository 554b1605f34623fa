import { Box, Button, Stack, TextField } from "@mui/material";
import { type Message, validateEmail } from "@vidensbank/shared";
import { type FormEvent, type ReactNode, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";

/**
 * One e-mail address field and a submit button, checked here by the shared e-mail rule before `send` runs: the
 * forms that mail a link (a new password, a new verification link).
 */
export function EmailForm(props: {
  id: string;
  label: string;
  submit: string;
  pending: string;
  loading: boolean;
  send(email: string): Promise<void>;
  intro?: ReactNode;
  spacing?: number;
  /** the address the field starts with (e.g. the one sent last, when the user tries again) */
  initialEmail?: string;
}) {
  const t = useT();
  const text = useServerMessage();
  const [email, setEmail] = useState(props.initialEmail ?? "");
  const [error, setError] = useState<Message | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    setError(invalid);
    if (invalid) return document.getElementById(props.id)?.focus();
    await props.send(email);
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={props.label}>
      <Stack spacing={props.spacing ?? 2}>
        {props.intro}
        <TextField
          id={props.id}
          label={t("common.email")}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(error)}
          helperText={text(error)}
          required
        />
        <Button type="submit" variant="contained" size="large" disabled={props.loading}>
          {props.loading ? props.pending : props.submit}
        </Button>
      </Stack>
    </Box>
  );
}
