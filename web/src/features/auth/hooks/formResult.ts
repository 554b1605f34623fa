/** What a form hook answers: whether the call succeeded, and the field errors to show (in the user's language). */
export interface FormResult {
  ok: boolean;
  fieldErrors: Record<string, string>;
}
