import { useMutation } from "@apollo/client/react";
import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { useT } from "../../../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { toFieldErrors } from "../../../lib/forms";
import { useToast } from "../../toast/hooks/useToast";
import { RegisterMutation } from "../graphql/register.mutation";
import type { FormResult } from "./formResult";
import { useAuth } from "./useAuth";

export interface RegisterValues {
  name: string;
  email: string;
  username: string;
  password: string;
}

/** ok: signed in (and on its way to /), or `checkEmail` when the account must be verified first. */
export type RegisterResult = FormResult & { checkEmail?: { email: string; message: ServerMessage } };

/** Register: signed in at once, or asked to check the e-mail; on failure 'Registrering fejlede' and field errors. */
export function useRegister(): {
  register: (values: RegisterValues) => Promise<RegisterResult>;
  loading: boolean;
} {
  const t = useT();
  const text = useServerMessage();
  const auth = useAuth();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [mutate, { loading }] = useMutation(RegisterMutation);

  const register = useCallback(
    async (values: RegisterValues): Promise<RegisterResult> => {
      const input = {
        ...values,
        name: values.name.trim(),
        email: values.email.trim(),
        username: values.username.trim(),
      };
      try {
        const { data } = await mutate({ variables: { input } });
        if (!data) throw new Error("empty register answer");
        const result = data.register;
        if (!result.verificationRequired && result.token && result.user) {
          auth.login(result.token, result.user);
          toast({ title: t("register.successTitle"), description: result.message, variant: "success" });
          navigate("/", { replace: true });
          return { ok: true, fieldErrors: {} };
        }
        const message = { key: "auth.registered", text: result.message };
        return { ok: true, fieldErrors: {}, checkEmail: { email: input.email, message } };
      } catch (err) {
        const e = toAppError(err);
        toast({
          title: t("register.failedTitle"),
          description: text(e.serverMessage),
          variant: "destructive",
        });
        return { ok: false, fieldErrors: toFieldErrors(e.fields, text) };
      }
    },
    [auth, mutate, navigate, t, text, toast],
  );

  return { register, loading };
}
