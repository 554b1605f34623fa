import { useMutation } from "@apollo/client/react";
import { useCallback, useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { toFieldErrors } from "../../../lib/forms";
import { useToast } from "../../toast/hooks/useToast";
import { REDIRECT_AFTER_LOGIN_MS } from "../constants";
import { LoginMutation } from "../graphql/login.mutation";
import type { FormResult } from "./formResult";
import { useAuth } from "./useAuth";

/**
 * Sign in: on success the welcome toast and / after REDIRECT_AFTER_LOGIN_MS; on failure 'Konto ikke bekræftet'
 * (EMAIL_NOT_VERIFIED) or 'Login fejlede' with the server's message in the user's language (spec §8).
 */
export function useLogin(): {
  login: (input: { email: string; password: string }) => Promise<FormResult>;
  loading: boolean;
} {
  const t = useT();
  const text = useServerMessage();
  const auth = useAuth();
  const navigate = useNavigate();
  // back where RequireAuth sent the user from (a shared link), else /; only a path of this app
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const target =
    typeof from === "string" && /^\/(?!\/)/.test(from) && !from.startsWith("/login") ? from : "/";
  const { toast } = useToast();
  const [mutate, { loading }] = useMutation(LoginMutation);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const login = useCallback(
    async (input: { email: string; password: string }): Promise<FormResult> => {
      try {
        const { data } = await mutate({
          variables: { input: { email: input.email.trim(), password: input.password } },
        });
        if (!data) throw new Error("empty login answer");
        auth.login(data.login.token, data.login.user);
        toast({
          title: t("login.welcomeTitle", { name: data.login.user.name }),
          description: t("login.welcomeText"),
          variant: "success",
        });
        redirectTimer.current = setTimeout(
          () => navigate(target, { replace: true }),
          REDIRECT_AFTER_LOGIN_MS,
        );
        return { ok: true, fieldErrors: {} };
      } catch (err) {
        const e = toAppError(err);
        const message = text(e.serverMessage);
        if (e.code === "EMAIL_NOT_VERIFIED") {
          toast({ title: t("login.unverifiedTitle"), description: message, variant: "destructive" });
        } else {
          toast({
            title: t("login.failedTitle"),
            description: message ?? t("login.failedDefault"),
            variant: "destructive",
          });
        }
        return { ok: false, fieldErrors: toFieldErrors(e.fields, text) };
      }
    },
    [auth, mutate, navigate, t, text, toast, target],
  );

  return { login, loading };
}
