import { AdminPanel } from "../features/admin/components/AdminPanel";

/** /admin (spec §2): the admin panel; RequireAdmin in App.tsx sends everyone else to /. */
export default function AdminRoute() {
  return <AdminPanel />;
}
