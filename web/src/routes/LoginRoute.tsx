import { useMutation } from "@apollo/client/react";
import { Box, Button, Link, Stack, TextField } from "@mui/material";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { validateLogin } from "../../../api/src/users/user.rules";
import { AuthPageLayout } from "../components/AuthPageLayout";
import { PasswordField } from "../components/PasswordField";
import { REDIRECT_AFTER_LOGIN_MS } from "../features/auth/constants";
import { LoginMutation } from "../features/auth/graphql/login.mutation";
import { useAuth } from "../features/auth/hooks/useAuth";
import { useToast } from "../features/toast/hooks/useToast";
import { useT } from "../i18n/i18n";
import { useServerText } from "../i18n/serverText";
import { toAppError } from "../lib/errors";
import { focusFirstError, toFieldErrors } from "../lib/forms";

const FIELDS = ["email", "password"] as const;

/** /login: email + password; welcome, then / after 200 ms. */
export default function LoginRoute() {
  const t = useT();
  const serverText = useServerText();
  const auth = useAuth();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [login, { loading }] = useMutation(LoginMutation);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = toFieldErrors(validateLogin({ email, password }), serverText);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError("login", FIELDS, found);
    try {
      const { data } = await login({ variables: { input: { email: email.trim(), password } } });
      if (!data) throw new Error("empty login answer");
      auth.login(data.login.token, data.login.user);
      toast({
        title: t("login.welcomeTitle", { name: data.login.user.name }),
        description: t("login.welcomeText"),
        variant: "success",
      });
      redirectTimer.current = setTimeout(() => navigate("/", { replace: true }), REDIRECT_AFTER_LOGIN_MS);
    } catch (err) {
      const e = toAppError(err);
      if (e.fields.length > 0) setErrors(toFieldErrors(e.fields, serverText));
      if (e.code === "EMAIL_NOT_VERIFIED" || e.message?.includes("ikke bekræftet")) {
        toast({
          title: t("login.unverifiedTitle"),
          description: serverText(e.message, e.code),
          variant: "destructive",
        });
      } else {
        toast({
          title: t("login.failedTitle"),
          description: serverText(e.message, e.code) ?? t("login.failedDefault"),
          variant: "destructive",
        });
      }
    }
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
