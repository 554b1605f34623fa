import type { MessageKey } from "../../i18n/da";

export interface NavItem {
  to: string;
  label: MessageKey;
  adminOnly?: boolean;
}

/** Header links (spec §2); /admin only for the admin. */
export const NAV_ITEMS: NavItem[] = [
  { to: "/", label: "nav.home" },
  { to: "/knowledge", label: "nav.knowledge" },
  { to: "/profile", label: "nav.profile" },
  { to: "/admin", label: "nav.admin", adminOnly: true },
];
