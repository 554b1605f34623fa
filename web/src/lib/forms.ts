import type { ServerMessageText } from "../i18n/serverMessage";
import type { FieldMessage } from "./errors";

/** Field errors (from the shared rules or the server) as a field → text map in the user's language. */
export function toFieldErrors(
  errors: readonly FieldMessage[],
  text: ServerMessageText,
): Record<string, string> {
  const map: Record<string, string> = {};
  for (const e of errors) {
    const shown = text({ key: e.key, params: e.params, text: e.message });
    if (shown) map[e.field] ??= shown;
  }
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
