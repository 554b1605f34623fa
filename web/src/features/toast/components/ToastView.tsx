import CloseIcon from "@mui/icons-material/Close";
import { Alert, AlertTitle, Box, IconButton } from "@mui/material";
import { type PointerEvent, type RefObject, useRef, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { TOAST_SWIPE_THRESHOLD_PX } from "../constants";
import type { ToastInput } from "../hooks/useToast";

const severity = { default: "info", success: "success", destructive: "error" } as const;

interface Props {
  regionRef: RefObject<HTMLElement | null>;
  toast: (ToastInput & { id: number }) | null;
  onDismiss: () => void;
}

/** The notification region (F8) with the current toast; swipe right to dismiss. */
export function ToastView({ regionRef, toast, onDismiss }: Props) {
  const t = useT();
  const startX = useRef<number | null>(null);
  const [dx, setDx] = useState(0);

  const onPointerDown = (e: PointerEvent) => {
    startX.current = e.clientX;
  };
  const onPointerMove = (e: PointerEvent) => {
    if (startX.current !== null) setDx(Math.max(0, e.clientX - startX.current));
  };
  const onPointerUp = () => {
    if (dx > TOAST_SWIPE_THRESHOLD_PX) onDismiss();
    startX.current = null;
    setDx(0);
  };

  const variant = toast?.variant ?? "default";
  return (
    <Box
      component="section"
      ref={regionRef}
      tabIndex={-1}
      aria-label={t("toast.region")}
      sx={{
        position: "fixed",
        zIndex: (theme) => theme.zIndex.snackbar,
        bottom: { xs: 12, md: 24 },
        right: { xs: 12, md: 24 },
        left: { xs: 12, md: "auto" },
        width: { md: "100%" },
        maxWidth: { md: 420 },
        pointerEvents: toast ? "auto" : "none",
      }}
    >
      <div aria-live={variant === "destructive" ? "assertive" : "polite"} aria-atomic="true">
        {toast && (
          <Alert
            key={toast.id}
            data-testid="toast"
            data-variant={variant}
            severity={severity[variant]}
            variant="filled"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            action={
              <IconButton aria-label={t("toast.close")} color="inherit" size="small" onClick={onDismiss}>
                <CloseIcon fontSize="small" />
              </IconButton>
            }
            sx={{
              boxShadow: 6,
              transform: `translateX(${dx}px)`,
              opacity: dx > 0 ? Math.max(0.3, 1 - dx / 200) : 1,
              touchAction: "pan-y",
              animation: "toast-in 160ms ease-out",
              "@keyframes toast-in": {
                from: { opacity: 0, transform: "translateY(8px)" },
                to: { opacity: 1 },
              },
            }}
          >
            <AlertTitle sx={{ mb: toast.description ? 0.25 : 0 }}>{toast.title}</AlertTitle>
            {toast.description}
          </Alert>
        )}
      </div>
    </Box>
  );
}
