import type { ApolloCache } from "@apollo/client";
import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useRef } from "react";
import type { NotionStatusFieldsFragment } from "../../../gql/graphql";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import { ConnectNotionMutation } from "../graphql/connectNotion.mutation";
import { DisconnectNotionMutation } from "../graphql/disconnectNotion.mutation";
import { NotionStatusQuery } from "../graphql/notionStatus.query";

export type NotionStatus = NotionStatusFieldsFragment;

/** A new connection state: remember it as the status, and let the admin data load again for the new workspace. */
function storeStatus(cache: ApolloCache, status: NotionStatus | undefined) {
  if (!status) return;
  cache.writeQuery({ query: NotionStatusQuery, data: { notionStatus: status } });
  cache.evict({ fieldName: "notionDatabases" });
  cache.evict({ fieldName: "notionConfig" });
  cache.evict({ fieldName: "notionSync" });
  cache.gc();
}

export interface NotionStatusState {
  status: NotionStatus | null;
  loading: boolean;
  /** the check failed: the state is unknown (spec §2) */
  unknown: boolean;
  retry: () => void;
  /** saves an internal integration token; resolves to the server's message when it was refused */
  connect: (token: string) => Promise<{ ok: true } | { ok: false; message: string | undefined }>;
  connecting: boolean;
  disconnect: () => Promise<boolean>;
  disconnecting: boolean;
}

/**
 * The Notion connection (spec §2/§8) with its actions. `toastOnError`: the chat page's card says
 * 'Kunne ikke tjekke Notion forbindelse' when the check fails; the admin page only logs it.
 */
export function useNotionStatus({ toastOnError }: { toastOnError: boolean }): NotionStatusState {
  const t = useT();
  const serverMessage = useServerMessage();
  const { toast } = useToast();
  const { data, loading, error, refetch } = useQuery(NotionStatusQuery, {
    fetchPolicy: "network-only",
    notifyOnNetworkStatusChange: true,
  });
  const [connectMutation, connecting] = useMutation(ConnectNotionMutation, {
    update: (cache, result) => storeStatus(cache, result.data?.connectNotion),
  });
  const [disconnectMutation, disconnecting] = useMutation(DisconnectNotionMutation, {
    update: (cache, result) => storeStatus(cache, result.data?.disconnectNotion),
  });

  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!error || reported.current === error) return;
    reported.current = error;
    if (toastOnError) toast({ title: t("notion.checkFailed"), variant: "destructive" });
    // spec §8: on the admin page a failed status check is logged only
    else console.warn("Notion status check failed", error);
  }, [error, toastOnError, toast, t]);

  const connect: NotionStatusState["connect"] = async (token) => {
    try {
      await connectMutation({ variables: { token } });
      toast({ title: t("notion.connection.connectedToast"), variant: "success" });
      return { ok: true };
    } catch (err) {
      const message = serverMessage(toAppError(err).serverMessage);
      toast({ title: t("notion.connection.connectFailed"), description: message, variant: "destructive" });
      return { ok: false, message };
    }
  };

  const disconnect = async () => {
    try {
      await disconnectMutation();
      toast({ title: t("notion.connection.disconnectedToast"), variant: "success" });
      return true;
    } catch (err) {
      toast({
        title: t("notion.disconnectFailed"),
        description: serverMessage(toAppError(err).serverMessage),
        variant: "destructive",
      });
      return false;
    }
  };

  return {
    status: data?.notionStatus ?? null,
    loading: loading && !data,
    unknown: Boolean(error) && !loading,
    retry: () => void refetch().catch(() => undefined),
    connect,
    connecting: connecting.loading,
    disconnect,
    disconnecting: disconnecting.loading,
  };
}
