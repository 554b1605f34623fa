import { CombinedGraphQLErrors } from "@apollo/client/errors";

export interface FieldMessage {
  field: string;
  message: string;
}

/** What the UI needs from a failed GraphQL call. */
export interface AppError {
  /** The server's Danish text for people, when the server sent one; show it through useServerText(). */
  message: string | null;
  /** extensions.code of the first GraphQL error (BAD_USER_INPUT, EMAIL_NOT_VERIFIED, ...). */
  code: string | null;
  /** Per-field form errors (BAD_USER_INPUT). */
  fields: FieldMessage[];
  /** True when the server was not reached or answered with something other than GraphQL. */
  network: boolean;
}

function isFieldMessage(value: unknown): value is FieldMessage {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as FieldMessage).field === "string" &&
    typeof (value as FieldMessage).message === "string"
  );
}

/** Turns anything thrown by Apollo into an AppError. */
export function toAppError(error: unknown): AppError {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const ext = (first?.extensions ?? {}) as Record<string, unknown>;
    const fields = Array.isArray(ext.fields) ? ext.fields.filter(isFieldMessage) : [];
    return {
      message: first?.message ?? null,
      code: typeof ext.code === "string" ? ext.code : null,
      fields,
      network: false,
    };
  }
  return { message: null, code: null, fields: [], network: true };
}
