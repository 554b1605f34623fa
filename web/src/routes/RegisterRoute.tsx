import MarkEmailReadOutlinedIcon from "@mui/icons-material/MarkEmailReadOutlined";
import { Box, Button, Link, Stack, TextField, Typography } from "@mui/material";
import { validateRegistration } from "@vidensbank/shared";
import { type FormEvent, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { PasswordField } from "../components/PasswordField";
import { useRegister } from "../features/auth/hooks/useRegister";
import { useT } from "../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../i18n/serverMessage";
import { focusFirstError, toFieldErrors } from "../lib/forms";

const FIELDS = ["name", "email", "username", "password"] as const;
type Field = (typeof FIELDS)[number];

/** /register: name, email, username, password; signed in at once, or asked to check the e-mail. */
export default function RegisterRoute() {
  const t = useT();
  const text = useServerMessage();
  const [values, setValues] = useState<Record<Field, string>>({
    name: "",
    email: "",
    username: "",
    password: "",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sentTo, setSentTo] = useState<{ email: string; message: ServerMessage } | null>(null);
  const { register, loading } = useRegister();

  const set = (field: Field) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // The allowed domains are server configuration: the server reports a wrong domain as a field error.
    const found = toFieldErrors(validateRegistration(values, []), text);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError("register", FIELDS, found);
    const result = await register(values);
    if (result.checkEmail) setSentTo(result.checkEmail);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      focusFirstError("register", FIELDS, result.fieldErrors);
    }
  };

  if (sentTo) {
    return (
      <AuthPageLayout
        title={t("register.checkEmailTitle")}
        icon={<MarkEmailReadOutlinedIcon color="primary" sx={{ fontSize: 48 }} aria-hidden="true" />}
      >
        <Stack spacing={2} sx={{ textAlign: "center" }} data-testid="register-check-email">
          <Typography>{t("register.checkEmailText", { email: sentTo.email })}</Typography>
          <Typography color="text.secondary" variant="body2">
            {text(sentTo.message)}
          </Typography>
          <Button component={RouterLink} to="/login" variant="contained" size="large">
            {t("common.backToLogin")}
          </Button>
        </Stack>
      </AuthPageLayout>
    );
  }

  const field = (name: Field, label: string, props: { type?: string; autoComplete: string }) => (
    <TextField
      id={`register-${name}`}
      label={label}
      value={values[name]}
      onChange={set(name)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      required
      {...props}
    />
  );

  return (
    <AuthPageLayout
      title={t("register.title")}
      subtitle={t("register.subtitle")}
      footer={
        <>
          {t("register.haveAccount")}{" "}
          <Link component={RouterLink} to="/login">
            {t("register.loginLink")}
          </Link>
        </>
      }
    >
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t("register.title")}>
        <Stack spacing={2.25}>
          {field("name", t("register.name"), { autoComplete: "name" })}
          {field("email", t("common.email"), { type: "email", autoComplete: "email" })}
          {field("username", t("register.username"), { autoComplete: "username" })}
          <PasswordField
            id="register-password"
            label={t("common.password")}
            autoComplete="new-password"
            value={values.password}
            onChange={set("password")}
            error={Boolean(errors.password)}
            helperText={errors.password}
            required
          />
          <Typography variant="body2" color="text.secondary">
            {t("register.acceptTerms")}{" "}
            <Link component={RouterLink} to="/terms">
              {t("login.terms").toLowerCase()}
            </Link>
            .
          </Typography>
          <Button type="submit" variant="contained" size="large" disabled={loading}>
            {loading ? t("register.pending") : t("register.submit")}
          </Button>
        </Stack>
      </Box>
    </AuthPageLayout>
  );
}
