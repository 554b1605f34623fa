import { useCallback, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useT } from "../../../i18n/i18n";
import { useToast } from "../../toast/hooks/useToast";
import { useAuth } from "./useAuth";

/** Logs out and goes to /login; on failure shows the destructive toast and stays signed in (spec §4, §8). */
export function useLogout(): { logout: () => Promise<void>; pending: boolean } {
  const auth = useAuth();
  const navigate = useNavigate();
  const { toast } = useToast();
  const t = useT();
  const [pending, setPending] = useState(false);

  const logout = useCallback(async () => {
    setPending(true);
    try {
      await auth.logout();
      navigate("/login", { replace: true });
    } catch {
      toast({ title: t("logout.failedTitle"), description: t("logout.failedText"), variant: "destructive" });
    } finally {
      setPending(false);
    }
  }, [auth, navigate, toast, t]);

  return { logout, pending };
}
