import { useCallback, useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { type KnowledgeView, readView, viewHref } from "../lib/knowledgeView";

/** The view in the address and a way to go to another one (a new history entry, so back/forward work). */
export function useKnowledgeView(): { view: KnowledgeView; go: (view: KnowledgeView) => void } {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const key = params.toString();
  const view = useMemo(() => readView(new URLSearchParams(key)), [key]);
  const go = useCallback((next: KnowledgeView) => navigate(viewHref(next)), [navigate]);
  return { view, go };
}
