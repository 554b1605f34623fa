import { Box } from "@mui/material";
import { useNotionAdminConfig } from "../hooks/useNotionAdminConfig";
import { useNotionStatus } from "../hooks/useNotionStatus";
import { useNotionSync } from "../hooks/useNotionSync";
import { NotionConfigSkeleton } from "./NotionConfigSkeleton";
import { NotionConnectionCard } from "./NotionConnectionCard";
import { NotionDatabasesCard } from "./NotionDatabasesCard";
import { NotionSyncCard } from "./NotionSyncCard";

/**
 * The whole Notion admin panel (used at /admin/notion and as the Notion tab of /admin): the connection, spec §2's
 * configuration panel and the sync. Saving the configuration starts a sync on the server; the sync card follows it.
 */
export function NotionConfigPanel() {
  const status = useNotionStatus({ toastOnError: false });
  const connected = status.status?.connected ?? false;
  const config = useNotionAdminConfig({ enabled: connected });
  const sync = useNotionSync({ enabled: connected });

  const save = async () => {
    const ok = await config.save();
    if (ok) sync.expectRun();
    return ok;
  };

  if (status.loading) return <NotionConfigSkeleton />;
  // desktop: the list beside the connection and the sync; narrow screens: connection, list, sync
  return (
    <Box
      data-testid="notion-config-panel"
      sx={{
        display: "grid",
        gap: 3,
        alignItems: "start",
        gridTemplateColumns: {
          xs: "minmax(0, 1fr)",
          lg: connected ? "minmax(0, 1fr) 340px" : "minmax(0, 1fr)",
        },
        gridTemplateRows: { lg: "auto 1fr" },
        gridTemplateAreas: {
          xs: '"conn" "db" "sync"',
          lg: connected ? '"db conn" "db sync"' : '"conn"',
        },
      }}
    >
      <Box sx={{ gridArea: "conn", minWidth: 0 }}>
        <NotionConnectionCard state={status} />
      </Box>
      {connected && (
        <>
          <Box sx={{ gridArea: "db", minWidth: 0 }}>
            <NotionDatabasesCard state={{ ...config, save }} />
          </Box>
          <Box sx={{ gridArea: "sync", minWidth: 0 }}>
            <NotionSyncCard state={sync} />
          </Box>
        </>
      )}
    </Box>
  );
}
