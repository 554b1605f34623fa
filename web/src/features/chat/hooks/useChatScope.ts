import { useApolloClient } from "@apollo/client/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { ASK_ARTICLE_PARAM } from "../../../lib/askArticle";
import { SetChatScopeMutation } from "../graphql/setChatScope.mutation";
import { ALL_SCOPE, type Scope, scopeInput } from "../lib/scope";

/** How the article picker was opened: from the menu (choose several) or by typing `#` (choose one). */
export type PickerMode = "menu" | "hash";

export interface ChatScopeState {
  /** the scope of the shown session (or the one chosen for a chat not started yet) */
  scope: Scope;
  /** change it: saved on the session at once, or kept for the first question of a new chat */
  change: (next: Scope) => Promise<void>;
  /** the scope to send with the first question of a chat that has no session yet */
  pendingInput: () => ReturnType<typeof scopeInput> | undefined;
  picker: PickerMode | null;
  openPicker: (mode: PickerMode) => void;
  closePicker: () => void;
}

/**
 * The scope of the chat's questions: read from the session, changed with setChatScope (the cache updates the
 * session by id). Handles `?askArticle=<id>`: a new session, scoped to that article.
 */
export function useChatScope({
  sessionId,
  sessionScope,
  createSession,
  onError,
}: {
  sessionId: string | null;
  sessionScope: Scope | null | undefined;
  createSession: () => Promise<string | null>;
  onError: (error: unknown) => void;
}): ChatScopeState {
  const client = useApolloClient();
  const [pending, setPending] = useState<Scope>(ALL_SCOPE);
  const [picker, setPicker] = useState<PickerMode | null>(null);
  const [params, setParams] = useSearchParams();
  const asked = useRef<string | null>(null);

  const save = useCallback(
    async (id: string, next: Scope) => {
      await client.mutate({
        mutation: SetChatScopeMutation,
        variables: { sessionId: id, scope: scopeInput(next) },
      });
    },
    [client],
  );

  const change = useCallback(
    async (next: Scope) => {
      if (!sessionId) {
        setPending(next);
        return;
      }
      try {
        await save(sessionId, next);
      } catch (error) {
        onError(error);
      }
    },
    [sessionId, save, onError],
  );

  // "Spørg om denne artikel": once per address, a new chat scoped to the article
  const articleId = params.get(ASK_ARTICLE_PARAM);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per article id
  useEffect(() => {
    if (!articleId || asked.current === articleId) return;
    asked.current = articleId;
    void (async () => {
      const id = await createSession();
      if (!id) return;
      try {
        await save(id, {
          kind: "ARTICLES",
          category: null,
          articles: [{ id: articleId, title: "" }],
          label: "",
        });
      } catch (error) {
        onError(error);
      }
      const rest = new URLSearchParams(params);
      rest.delete(ASK_ARTICLE_PARAM);
      setParams(rest, { replace: true });
    })();
  }, [articleId]);

  return {
    scope: sessionId ? (sessionScope ?? ALL_SCOPE) : pending,
    change,
    pendingInput: () => (sessionId || pending.kind === "ALL" ? undefined : scopeInput(pending)),
    picker,
    openPicker: setPicker,
    closePicker: () => setPicker(null),
  };
}
