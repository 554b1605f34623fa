import type { ServerText } from "../i18n/serverText";

/** Field errors (from the shared rules or the server) as a field → text map in the user's language. */
export function toFieldErrors(
  errors: { field: string; message: string }[],
  serverText: ServerText,
): Record<string, string> {
  const map: Record<string, string> = {};
  for (const e of errors) map[e.field] ??= serverText(e.message);
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
