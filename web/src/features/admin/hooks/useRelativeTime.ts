import { useCallback } from "react";
import { useI18n } from "../../../i18n/i18n";
import { formatRelative } from "../../../lib/dates";
import { isJustNow } from "../lib/stats";

/** Relative time in the current language; under a minute ago reads 'lige nu' rather than 'for 0 sekunder siden'. */
export function useRelativeTime(): (value: string) => string {
  const { t, language } = useI18n();
  return useCallback(
    (value: string) => (isJustNow(value) ? t("admin.justNow") : formatRelative(value, language)),
    [t, language],
  );
}
