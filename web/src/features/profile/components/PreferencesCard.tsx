import { useMutation } from "@apollo/client/react";
import TuneRoundedIcon from "@mui/icons-material/TuneRounded";
import { Box, Button, FormControlLabel, Stack, Switch, TextField, Typography } from "@mui/material";
import { type FormEvent, useEffect, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import type { ThemePreference } from "../../../theme";
import { MyPreferencesQuery } from "../../preferences/graphql/myPreferences.query";
import { UpdatePreferencesMutation } from "../../preferences/graphql/updatePreferences.mutation";
import type { UiPreferences } from "../../preferences/hooks/usePreferences";
import { useToast } from "../../toast/hooks/useToast";
import { ProfileSection } from "./ProfileSection";

const LANGUAGES = ["da", "en"] as const;
const THEMES: ThemePreference[] = ["light", "dark", "system"];

/** Language, theme, notifications (spec §2 card 2); resets to the loaded values, re-fetches after saving. */
export function PreferencesCard({ loaded }: { loaded: UiPreferences }) {
  const t = useT();
  const text = useServerMessage();
  const { toast } = useToast();
  const [form, setForm] = useState<UiPreferences>(loaded);
  const [save, { loading }] = useMutation(UpdatePreferencesMutation, {
    refetchQueries: [MyPreferencesQuery],
    awaitRefetchQueries: true,
  });

  useEffect(() => setForm(loaded), [loaded]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await save({ variables: { input: form } });
      toast({
        title: t("profile.prefs.savedTitle"),
        description: t("profile.prefs.savedText"),
        variant: "success",
      });
    } catch (err) {
      const e = toAppError(err);
      toast({
        title: t("profile.prefs.failedTitle"),
        description: text(e.serverMessage),
        variant: "destructive",
      });
    }
  };

  return (
    <ProfileSection
      id="prefs-title"
      icon={<TuneRoundedIcon color="primary" aria-hidden="true" />}
      title={t("profile.prefs.title")}
      subtitle={t("profile.prefs.subtitle")}
    >
      <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby="prefs-title">
        <Stack spacing={2.5}>
          <TextField
            id="prefs-language"
            select
            label={t("profile.prefs.language")}
            value={form.language}
            onChange={(e) =>
              setForm((f) => ({ ...f, language: e.target.value as UiPreferences["language"] }))
            }
            slotProps={{ select: { native: true } }}
          >
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`language.${l}`)}
              </option>
            ))}
          </TextField>
          <TextField
            id="prefs-theme"
            select
            label={t("profile.prefs.theme")}
            value={form.theme}
            onChange={(e) => setForm((f) => ({ ...f, theme: e.target.value as ThemePreference }))}
            slotProps={{ select: { native: true } }}
          >
            {THEMES.map((th) => (
              <option key={th} value={th}>
                {t(`theme.${th}`)}
              </option>
            ))}
          </TextField>
          <Box>
            <FormControlLabel
              control={
                <Switch
                  id="prefs-notifications"
                  checked={form.notifications}
                  onChange={(e) => setForm((f) => ({ ...f, notifications: e.target.checked }))}
                  slotProps={{ input: { "aria-describedby": "prefs-notifications-help" } }}
                />
              }
              label={t("profile.prefs.notifications")}
            />
            <Typography
              id="prefs-notifications-help"
              variant="body2"
              color="text.secondary"
              // under the label's first letter: the switch is 58 px wide and its FormControlLabel starts 11 px left
              sx={{ ml: "47px", mt: -0.5 }}
            >
              {t("profile.prefs.notificationsHelp")}
            </Typography>
          </Box>
          <Box>
            <Button type="submit" variant="contained" disabled={loading}>
              {loading ? t("profile.prefs.saving") : t("profile.prefs.save")}
            </Button>
          </Box>
        </Stack>
      </Box>
    </ProfileSection>
  );
}
