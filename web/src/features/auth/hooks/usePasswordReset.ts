import { useMutation } from "@apollo/client/react";
import { useCallback } from "react";
import { useT } from "../../../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { toFieldErrors } from "../../../lib/forms";
import { useToast } from "../../toast/hooks/useToast";
import { ForgotPasswordMutation } from "../graphql/forgotPassword.mutation";
import { ResetPasswordMutation } from "../graphql/resetPassword.mutation";
import type { FormResult } from "./formResult";

/** Ask for a reset link: the server's confirmation on success; on failure 'Fejl' with its message (spec §8). */
export function useForgotPassword(): {
  requestReset: (email: string) => Promise<ServerMessage | null>;
  loading: boolean;
} {
  const t = useT();
  const text = useServerMessage();
  const { toast } = useToast();
  const [mutate, { loading }] = useMutation(ForgotPasswordMutation);

  const requestReset = useCallback(
    async (email: string): Promise<ServerMessage | null> => {
      try {
        const { data } = await mutate({ variables: { email: email.trim() } });
        return { key: "auth.forgotSent", text: data?.forgotPassword.message ?? null };
      } catch (err) {
        const e = toAppError(err);
        toast({ title: t("common.error"), description: text(e.serverMessage), variant: "destructive" });
        return null;
      }
    },
    [mutate, t, text, toast],
  );

  return { requestReset, loading };
}

/** Set a new password with the e-mailed token: the server's confirmation, or 'Fejl' and the field errors. */
export function useResetPassword(): {
  resetPassword: (token: string, newPassword: string) => Promise<FormResult & { done?: ServerMessage }>;
  loading: boolean;
} {
  const t = useT();
  const text = useServerMessage();
  const { toast } = useToast();
  const [mutate, { loading }] = useMutation(ResetPasswordMutation);

  const resetPassword = useCallback(
    async (token: string, newPassword: string): Promise<FormResult & { done?: ServerMessage }> => {
      try {
        const { data } = await mutate({ variables: { input: { token, newPassword } } });
        return {
          ok: true,
          fieldErrors: {},
          done: { key: "auth.resetDone", text: data?.resetPassword.message },
        };
      } catch (err) {
        const e = toAppError(err);
        toast({ title: t("common.error"), description: text(e.serverMessage), variant: "destructive" });
        return { ok: false, fieldErrors: toFieldErrors(e.fields, text) };
      }
    },
    [mutate, t, text, toast],
  );

  return { resetPassword, loading };
}
