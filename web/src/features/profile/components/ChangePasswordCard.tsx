import { useMutation } from "@apollo/client/react";
import LockResetRoundedIcon from "@mui/icons-material/LockResetRounded";
import { Box, Button, Stack } from "@mui/material";
import { validatePasswordChange } from "@vidensbank/shared";
import { type FormEvent, useState } from "react";
import { PasswordField } from "../../../components/PasswordField";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { focusFirstError, toFieldErrors } from "../../../lib/forms";
import { useToast } from "../../toast/hooks/useToast";
import { ChangePasswordMutation } from "../graphql/changePassword.mutation";
import { ProfileSection } from "./ProfileSection";

const FIELDS = ["currentPassword", "newPassword", "confirmPassword"] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: Record<Field, string> = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** Current, new and confirmation, each with its own show/hide toggle; clears on success (spec §2 card 3). */
export function ChangePasswordCard() {
  const t = useT();
  const text = useServerMessage();
  const { toast } = useToast();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [change, { loading }] = useMutation(ChangePasswordMutation);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = toFieldErrors(validatePasswordChange(values), text);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError("password", FIELDS, found);
    try {
      // The confirmation is checked here and never sent (spec §7).
      await change({
        variables: { input: { currentPassword: values.currentPassword, newPassword: values.newPassword } },
      });
      setValues(EMPTY);
      toast({
        title: t("profile.password.successTitle"),
        description: t("profile.password.successText"),
        variant: "success",
      });
    } catch (err) {
      const e = toAppError(err);
      setErrors(toFieldErrors(e.fields, text));
      toast({
        title: t("profile.password.failedTitle"),
        description: text(e.serverMessage),
        variant: "destructive",
      });
    }
  };

  const field = (name: Field, label: string, autoComplete: string) => (
    <PasswordField
      id={`password-${name}`}
      label={label}
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      required
    />
  );

  return (
    <ProfileSection
      id="password-title"
      icon={<LockResetRoundedIcon color="primary" aria-hidden="true" />}
      title={t("profile.password.title")}
      subtitle={t("profile.password.subtitle")}
    >
      <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby="password-title">
        <Stack spacing={2.25}>
          {field("currentPassword", t("profile.password.current"), "current-password")}
          {field("newPassword", t("profile.password.new"), "new-password")}
          {field("confirmPassword", t("profile.password.confirm"), "new-password")}
          <Box>
            <Button type="submit" variant="contained" disabled={loading}>
              {loading ? t("profile.password.pending") : t("profile.password.submit")}
            </Button>
          </Box>
        </Stack>
      </Box>
    </ProfileSection>
  );
}
