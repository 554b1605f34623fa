import { Navigate, Outlet, useLocation } from "react-router-dom";
import { FullPageLoading } from "../../../components/FullPageLoading";
import { useAuth } from "../hooks/useAuth";

/** Protected routes: a loading text while the state is checked, /login when signed out. */
export function RequireAuth() {
  const { isAuthenticated, isLoading } = useAuth();
  const location = useLocation();
  if (isLoading) return <FullPageLoading />;
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
