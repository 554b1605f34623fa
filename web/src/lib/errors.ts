import { CombinedGraphQLErrors } from "@apollo/client/errors";
import type { MessageParams } from "@vidensbank/shared";
import type { ServerMessage, ServerMessageText } from "../i18n/serverMessage";

/** A field error: the field, and its message by key (with the server's Danish text as fallback). */
export interface FieldMessage {
  field: string;
  key?: string | null;
  params?: MessageParams | null;
  /** the server's Danish text */
  message?: string | null;
}

/** What the UI needs from a failed GraphQL call. */
export interface AppError {
  /** The server's message (key, parameters and Danish text); show it through useServerMessage(). */
  serverMessage: ServerMessage | null;
  /** extensions.code of the first GraphQL error (BAD_USER_INPUT, EMAIL_NOT_VERIFIED, ...). */
  code: string | null;
  /** Per-field form errors (BAD_USER_INPUT). */
  fields: FieldMessage[];
  /** True when the server was not reached or answered with something other than GraphQL. */
  network: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

const params = (value: unknown): MessageParams | null => (isRecord(value) ? (value as MessageParams) : null);

/** extensions.fields ({ field, message }) joined with extensions.fieldMessageKeys ({ field, messageKey, ... }). */
function fieldsOf(ext: Record<string, unknown>): FieldMessage[] {
  const texts = Array.isArray(ext.fields) ? ext.fields.filter(isRecord) : [];
  const keys = Array.isArray(ext.fieldMessageKeys) ? ext.fieldMessageKeys.filter(isRecord) : [];
  return texts
    .filter((f) => typeof f.field === "string")
    .map((f, i) => {
      const keyed = keys[i]?.field === f.field ? keys[i] : keys.find((k) => k.field === f.field);
      return {
        field: f.field as string,
        message: typeof f.message === "string" ? f.message : null,
        key: typeof keyed?.messageKey === "string" ? keyed.messageKey : null,
        params: params(keyed?.messageParams),
      };
    });
}

/** Turns anything thrown by Apollo into an AppError. */
export function toAppError(error: unknown): AppError {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const ext = (first?.extensions ?? {}) as Record<string, unknown>;
    return {
      serverMessage: first
        ? {
            key: typeof ext.messageKey === "string" ? ext.messageKey : null,
            params: params(ext.messageParams),
            text: first.message ?? null,
          }
        : null,
      code: typeof ext.code === "string" ? ext.code : null,
      fields: fieldsOf(ext),
      network: false,
    };
  }
  return { serverMessage: null, code: null, fields: [], network: true };
}

/**
 * Refusals whose catalogue text says all there is (what happened, the limit, what to do): their toast leads with it
 * instead of a generic title such as "Handlingen mislykkedes".
 */
const SAYS_IT_ALL: ReadonlySet<string> = new Set(["CHAT_SESSION_LIMIT"]);

/**
 * A failed action's toast: `title` (what failed) over the server's message in the user's language; for a refusal
 * in SAYS_IT_ALL the message itself is the title. `text` is useServerMessage().
 */
export function failureToast(
  title: string,
  error: AppError,
  text: ServerMessageText,
): { title: string; description: string | null } {
  const message = text(error.serverMessage) ?? null;
  if (message && error.code && SAYS_IT_ALL.has(error.code)) return { title: message, description: null };
  return { title, description: message };
}
