import { useMutation } from "@apollo/client/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { MessageKey } from "../../../i18n/da";
import { useT } from "../../../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import { ResendVerificationMutation } from "../graphql/resendVerification.mutation";
import { VerifyEmailMutation } from "../graphql/verifyEmail.mutation";

/** Server messages are kept by key and shown in the current language; `fallback` is the UI's own text. */
export type VerificationState =
  | { kind: "loading" }
  | { kind: "success"; message: ServerMessage }
  | { kind: "failed"; message: ServerMessage | null; fallback: MessageKey };

/** Verifies the e-mailed token once (a token can be used once: never sent twice, even under StrictMode). */
export function useVerifyEmail(token: string | null): VerificationState {
  const [state, setState] = useState<VerificationState>(() =>
    token ? { kind: "loading" } : { kind: "failed", message: null, fallback: "verify.noToken" },
  );
  const [verify] = useMutation(VerifyEmailMutation);
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (!token || started.current === token) return;
    started.current = token;
    verify({ variables: { token } })
      .then(({ data }) => {
        const result = data?.verifyEmail;
        if (result?.verified)
          setState({ kind: "success", message: { key: "auth.verified", text: result.message } });
        else {
          const message = result?.message ? { text: result.message } : null;
          setState({ kind: "failed", message, fallback: "verify.failedDefault" });
        }
      })
      .catch((err: unknown) => {
        const e = toAppError(err);
        setState(
          e.network
            ? { kind: "failed", message: null, fallback: "verify.networkError" }
            : { kind: "failed", message: e.serverMessage, fallback: "verify.failedDefault" },
        );
      });
  }, [token, verify]);

  return state;
}

/** Send a new verification e-mail, with the spec's toasts (success, failure, network error). */
export function useResendVerification(): { resend: (email: string) => Promise<void>; loading: boolean } {
  const t = useT();
  const text = useServerMessage();
  const { toast } = useToast();
  const [mutate, { loading }] = useMutation(ResendVerificationMutation);

  const resend = useCallback(
    async (email: string) => {
      try {
        const { data } = await mutate({ variables: { email: email.trim() } });
        const result = data?.resendVerification;
        if (result?.ok) {
          const description = text({ key: "auth.resendSent", text: result.message });
          toast({ title: t("verify.resendSuccess"), description, variant: "success" });
        } else {
          toast({
            title: t("verify.resendFailed"),
            description: text({ text: result?.message }),
            variant: "destructive",
          });
        }
      } catch (err) {
        const e = toAppError(err);
        toast({
          title: e.network ? t("verify.resendNetworkError") : t("verify.resendFailed"),
          description: text(e.serverMessage),
          variant: "destructive",
        });
      }
    },
    [mutate, t, text, toast],
  );

  return { resend, loading };
}
