import { useMutation } from "@apollo/client/react";
import { useCallback } from "react";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import { AdminDeleteUserMutation } from "../graphql/adminDeleteUser.mutation";

/**
 * Deletes a user with everything they own (the server removes conversations, bookmarks and preferences) and drops
 * the user from every cached list; toasts success or the server's reason. Resolves true on success.
 */
export function useDeleteUser(): { deleteUser: (id: string) => Promise<boolean>; loading: boolean } {
  const t = useT();
  const text = useServerMessage();
  const { toast } = useToast();
  const [mutate, { loading }] = useMutation(AdminDeleteUserMutation);
  const deleteUser = useCallback(
    async (id: string) => {
      try {
        await mutate({
          variables: { id },
          update: (cache) => {
            cache.evict({ id: cache.identify({ __typename: "AdminUser", id }) });
            cache.gc();
          },
        });
        toast({
          title: t("admin.delete.doneTitle"),
          description: t("admin.delete.doneText"),
          variant: "success",
        });
        return true;
      } catch (err) {
        const e = toAppError(err);
        toast({
          title: t("admin.delete.failedTitle"),
          description: text(e.serverMessage) ?? t("admin.networkError"),
          variant: "destructive",
        });
        return false;
      }
    },
    [mutate, t, text, toast],
  );
  return { deleteUser, loading };
}
