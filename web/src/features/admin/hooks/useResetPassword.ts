import { useMutation } from "@apollo/client/react";
import { useCallback } from "react";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import { AdminResetPasswordMutation } from "../graphql/adminResetPassword.mutation";

/** Sets a user's password as the admin; toasts success or the server's reason. Resolves true on success. */
export function useResetPassword(): {
  resetPassword: (userId: string, newPassword: string) => Promise<boolean>;
  loading: boolean;
} {
  const t = useT();
  const text = useServerMessage();
  const { toast } = useToast();
  const [mutate, { loading }] = useMutation(AdminResetPasswordMutation);
  const resetPassword = useCallback(
    async (userId: string, newPassword: string) => {
      try {
        await mutate({ variables: { userId, newPassword } });
        toast({
          title: t("admin.reset.doneTitle"),
          description: t("admin.reset.doneText"),
          variant: "success",
        });
        return true;
      } catch (err) {
        const e = toAppError(err);
        toast({
          title: t("admin.reset.failedTitle"),
          description: text(e.serverMessage) ?? t("admin.networkError"),
          variant: "destructive",
        });
        return false;
      }
    },
    [mutate, t, text, toast],
  );
  return { resetPassword, loading };
}
