import { Box, Tab, Tabs } from "@mui/material";
import { PageHeader } from "../../../components/PageHeader";
import type { MessageKey } from "../../../i18n/da";
import { useT } from "../../../i18n/i18n";
import { NotionConfigPanel } from "../../notion";
import { useAdminTab } from "../hooks/useAdminTab";
import { ADMIN_TABS, type AdminTab } from "../lib/adminTabs";
import { ActivityTab } from "./ActivityTab";
import { StatsTab } from "./StatsTab";
import { UsersTab } from "./UsersTab";

const LABELS: Record<AdminTab, MessageKey> = {
  users: "admin.tabs.users",
  stats: "admin.tabs.stats",
  activity: "admin.tabs.activity",
  notion: "admin.tabs.notion",
};

/** 'Admin Panel' (spec §2): users, statistics, activity and Notion; the tab lives in the address (`?tab=`). */
export function AdminPanel() {
  const t = useT();
  const { tab, setTab } = useAdminTab();
  return (
    <>
      <PageHeader title={t("admin.title")} subtitle={t("admin.subtitle")} />
      <Box sx={{ borderBottom: 1, borderColor: "divider", mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_, next: AdminTab) => setTab(next)}
          aria-label={t("admin.tabs.label")}
          variant="scrollable"
          scrollButtons={false}
        >
          {ADMIN_TABS.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(LABELS[name])}
              id={`admin-tab-${name}`}
              aria-controls={`admin-panel-${name}`}
              sx={{ minWidth: 0, px: { xs: 1.5, sm: 2 } }}
            />
          ))}
        </Tabs>
      </Box>
      <Box
        role="tabpanel"
        id={`admin-panel-${tab}`}
        aria-labelledby={`admin-tab-${tab}`}
        data-testid={`admin-${tab}`}
      >
        {tab === "users" ? (
          <UsersTab />
        ) : tab === "stats" ? (
          <StatsTab />
        ) : tab === "activity" ? (
          <ActivityTab />
        ) : (
          <NotionConfigPanel />
        )}
      </Box>
    </>
  );
}
