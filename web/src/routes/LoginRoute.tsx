import { Box, Button, Link, Stack, TextField } from "@mui/material";
import { validateLogin } from "@vidensbank/shared";
import { type FormEvent, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { PasswordField } from "../components/PasswordField";
import { useLogin } from "../features/auth/hooks/useLogin";
import { useT } from "../i18n/i18n";
import { useServerMessage } from "../i18n/serverMessage";
import { focusFirstError, toFieldErrors } from "../lib/forms";

const FIELDS = ["email", "password"] as const;

/** /login: email + password; welcome, then / after 200 ms. */
export default function LoginRoute() {
  const t = useT();
  const text = useServerMessage();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { login, loading } = useLogin();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = toFieldErrors(validateLogin({ email, password }), text);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError("login", FIELDS, found);
    const result = await login({ email, password });
    if (!result.ok) setErrors(result.fieldErrors);
  };

  return (
    <AuthPageLayout
      title={t("login.title")}
      subtitle={t("login.subtitle")}
      footer={
        <>
          {t("login.noAccount")}{" "}
          <Link component={RouterLink} to="/register">
            {t("login.registerLink")}
          </Link>
        </>
      }
    >
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t("login.title")}>
        <Stack spacing={2.25}>
          <TextField
            id="login-email"
            label={t("common.email")}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={Boolean(errors.email)}
            helperText={errors.email}
            required
          />
          <PasswordField
            id="login-password"
            label={t("common.password")}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(errors.password)}
            helperText={errors.password}
            required
          />
          <Box sx={{ display: "flex", justifyContent: "flex-end", mt: "4px !important" }}>
            <Link component={RouterLink} to="/forgot-password" variant="body2">
              {t("login.forgot")}
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={loading}>
            {loading ? t("login.pending") : t("login.submit")}
          </Button>
        </Stack>
      </Box>
    </AuthPageLayout>
  );
}
