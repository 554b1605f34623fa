import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { NotionAdminDataQuery as NotionAdminData } from "../../../gql/graphql";
import { useT } from "../../../i18n/i18n";
import { useToast } from "../../toast/hooks/useToast";
import { NotionAdminDataQuery } from "../graphql/notionAdminData.query";
import { SaveNotionConfigMutation } from "../graphql/saveNotionConfig.mutation";
import { sameSelection, toggled } from "../lib/notion";

export type NotionDatabase = NotionAdminData["notionDatabases"][number];
export type NotionConfig = NotionAdminData["notionConfig"];

export interface NotionAdminConfigState {
  databases: NotionDatabase[];
  config: NotionConfig | null;
  loading: boolean;
  error: boolean;
  reload: () => void;
  /** the ids ticked on screen (starts as the saved choice) */
  selected: ReadonlySet<string>;
  toggle: (id: string) => void;
  /** the ticked ids differ from the saved choice */
  dirty: boolean;
  save: () => Promise<boolean>;
  saving: boolean;
}

/**
 * The configuration panel's state (spec §4): loading, then loaded; the selection toggles per database id; saving
 * disables the button and a successful save reloads the data. Toasts are spec §8's.
 */
export function useNotionAdminConfig({ enabled }: { enabled: boolean }): NotionAdminConfigState {
  const t = useT();
  const { toast } = useToast();
  const { data, loading, error, refetch } = useQuery(NotionAdminDataQuery, {
    skip: !enabled,
    fetchPolicy: "network-only",
    notifyOnNetworkStatusChange: true,
  });
  const [saveMutation, saving] = useMutation(SaveNotionConfigMutation);
  const saved = useMemo(() => new Set(data?.notionConfig.selectedDatabases ?? []), [data]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(saved);

  // every load (first, after a save, after a reconnect) starts from the saved choice
  useEffect(() => setSelected(saved), [saved]);

  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!error || reported.current === error) return;
    reported.current = error;
    toast({ title: t("notion.error"), description: t("notion.loadFailed"), variant: "destructive" });
  }, [error, toast, t]);

  const save = async () => {
    const ids = [...selected];
    try {
      await saveMutation({ variables: { selectedDatabases: ids } });
      toast({
        title: t("notion.saved"),
        description: t("notion.savedText", { n: ids.length }),
        variant: "success",
      });
      await refetch().catch(() => undefined);
      return true;
    } catch {
      toast({ title: t("notion.error"), description: t("notion.saveFailed"), variant: "destructive" });
      return false;
    }
  };

  return {
    databases: data?.notionDatabases ?? [],
    config: data?.notionConfig ?? null,
    loading: enabled && loading && !data,
    error: Boolean(error) && !data,
    reload: () => void refetch().catch(() => undefined),
    selected,
    toggle: (id) => setSelected((s) => toggled(s, id)),
    dirty: !sameSelection(selected, saved),
    save,
    saving: saving.loading,
  };
}
