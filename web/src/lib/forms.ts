import type { Translate } from "../i18n/i18n";
import { translateRuleMessage } from "../i18n/validation";

/** Field errors (from the shared rules or the server) as a field → translated text map. */
export function toFieldErrors(
  errors: { field: string; message: string }[],
  t: Translate,
): Record<string, string> {
  const map: Record<string, string> = {};
  for (const e of errors) map[e.field] ??= translateRuleMessage(e.message, t);
  return map;
}

/** Moves keyboard focus to the first field with an error (ids are `${form}-${field}`). */
export function focusFirstError(
  form: string,
  fields: readonly string[],
  errors: Record<string, string>,
): void {
  const first = fields.find((f) => errors[f]);
  if (first) document.getElementById(`${form}-${first}`)?.focus();
}
