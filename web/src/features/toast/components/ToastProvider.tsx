import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_REMOVE_DELAY_MS } from "../constants";
import { ToastContext, type ToastInput } from "../hooks/useToast";
import { ToastView } from "./ToastView";

interface ActiveToast extends ToastInput {
  id: number;
  open: boolean;
}

/**
 * Spec §9: at most one toast visible — the provider holds one, a new one replaces it. A toast closes after
 * 5 s or when dismissed; a closed toast is hidden at once and dropped after the removal delay.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const nextId = useRef(1);
  const regionRef = useRef<HTMLElement>(null);

  const toast = useCallback(
    (input: ToastInput) => setCurrent({ ...input, id: nextId.current++, open: true }),
    [],
  );
  const dismiss = useCallback(() => setCurrent((c) => (c ? { ...c, open: false } : c)), []);

  useEffect(() => {
    if (!current) return;
    const id = current.id;
    const timer = current.open
      ? setTimeout(() => setCurrent((c) => (c?.id === id ? { ...c, open: false } : c)), TOAST_DURATION_MS)
      : setTimeout(() => setCurrent((c) => (c?.id === id ? null : c)), TOAST_REMOVE_DELAY_MS);
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
      <ToastView regionRef={regionRef} toast={current?.open ? current : null} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}
