/** The admin panel's tabs (spec §2), in order; the first is the default. Kept in the address as `?tab=`. */
export const ADMIN_TABS = ["users", "stats", "activity", "notion"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/** The tab named in the address, or the default (users) for anything else. */
export function readAdminTab(params: URLSearchParams): AdminTab {
  const value = params.get("tab");
  return (ADMIN_TABS as readonly string[]).includes(value ?? "") ? (value as AdminTab) : "users";
}

/** The address of a tab; the default tab has no parameter. */
export function adminTabHref(tab: AdminTab): string {
  return tab === "users" ? "/admin" : `/admin?tab=${tab}`;
}
