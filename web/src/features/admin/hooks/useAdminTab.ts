import { useCallback, useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { type AdminTab, adminTabHref, readAdminTab } from "../lib/adminTabs";

/** The tab in the address and a way to switch (a history entry, so reload and back/forward keep the tab). */
export function useAdminTab(): { tab: AdminTab; setTab: (tab: AdminTab) => void } {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const key = params.toString();
  const tab = useMemo(() => readAdminTab(new URLSearchParams(key)), [key]);
  const setTab = useCallback((next: AdminTab) => navigate(adminTabHref(next)), [navigate]);
  return { tab, setTab };
}
