import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { TOAST_DURATION_MS, TOAST_HOTKEY } from "../constants";
import { ToastContext, type ToastInput } from "../hooks/useToast";
import { ToastView } from "./ToastView";

interface ActiveToast extends ToastInput {
  id: number;
}

/** Spec §9: at most one toast visible — the provider holds one, a new one replaces it; each goes after 5 s. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const nextId = useRef(1);
  const regionRef = useRef<HTMLElement>(null);

  const toast = useCallback((input: ToastInput) => setCurrent({ ...input, id: nextId.current++ }), []);
  const dismiss = useCallback(() => setCurrent(null), []);

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent((c) => (c?.id === current.id ? null : c)), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [current]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <ToastView regionRef={regionRef} toast={current} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}
