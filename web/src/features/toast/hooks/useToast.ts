import { createContext, useContext } from "react";

export type ToastVariant = "default" | "success" | "destructive";

export interface ToastInput {
  title: string;
  description?: string | null;
  variant?: ToastVariant;
}

export interface ToastContextValue {
  /** Shows a toast; a newer toast replaces the visible one (at most one at a time). */
  toast: (input: ToastInput) => void;
  dismiss: () => void;
}

export const ToastContext = createContext<ToastContextValue | null>(null);

export function useToast(): ToastContextValue {
  const value = useContext(ToastContext);
  if (!value) throw new Error("useToast must be used within a ToastProvider");
  return value;
}
