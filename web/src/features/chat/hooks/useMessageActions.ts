import { useApolloClient } from "@apollo/client/react";
import { type RefObject, useCallback, useMemo } from "react";
import type { FeedbackRating } from "../../../gql/graphql";
import { useI18n } from "../../../i18n/i18n";
import { useToast } from "../../toast/hooks/useToast";
import type { MessageActions } from "../components/MessageItem";
import {
  EditMessageMutation,
  RegenerateMessageMutation,
  RetryMessageMutation,
  SetFeedbackMutation,
  SwitchBranchMutation,
} from "../graphql/chat.operations";
import type { Message } from "../lib/messages";
import type { ChatMessagesState } from "./useChatMessages";
import type { PendingAnswerState, PendingStart } from "./usePendingAnswer";

/**
 * What a message's buttons do (MessageItem's actions): edit, regenerate and retry start an answer with its
 * stand-ins shown until the mutation answers (usePendingAnswer); switching a branch, feedback and copy. Stable
 * while its inputs are (the rows are memoised by it).
 */
export function useMessageActions({
  chat,
  pending,
  fail,
  send,
}: {
  chat: Pick<ChatMessagesState, "upsert" | "replaceFrom">;
  pending: Pick<PendingAnswerState, "begin" | "end">;
  /** shows a failed action's toast (or goes to /login) */
  fail: (title: string, error: unknown) => void;
  /** the chat's send (a follow-up chip asks through it) */
  send: RefObject<(question: string) => Promise<boolean>>;
}): MessageActions {
  const { t } = useI18n();
  const client = useApolloClient();
  const { toast } = useToast();

  /**
   * Starts an answer by `mutate` (an edit, a regeneration, a retry), its stand-ins shown until it answers
   * (usePendingAnswer); what it returned goes to the list by `add`. Resolves false when it failed.
   */
  const startAnswer = useCallback(
    async (
      start: PendingStart,
      mutate: () => Promise<Message[] | null>,
      add: (started: Message[]) => void,
    ) => {
      const started = pending.begin(start);
      try {
        const messages = await mutate();
        pending.end(started, ...(messages ?? []));
        if (messages) add(messages);
        return true;
      } catch (error) {
        pending.end(started);
        fail(t("chat.actionFailed"), error);
        return false;
      }
    },
    [pending.begin, pending.end, fail, t],
  );

  return useMemo<MessageActions>(
    () => ({
      onEdit: (messageId, content) =>
        startAnswer(
          { after: messageId, question: null },
          async () => {
            const { data } = await client.mutate({
              mutation: EditMessageMutation,
              variables: { messageId, content },
            });
            return data ? [data.editMessage.userMessage, data.editMessage.assistantMessage] : null;
          },
          (started) => chat.replaceFrom(messageId, ...started),
        ),
      onRegenerate: (messageId) =>
        void startAnswer(
          { from: messageId, question: null },
          async () => {
            const { data } = await client.mutate({
              mutation: RegenerateMessageMutation,
              variables: { messageId },
            });
            return data ? [data.regenerateMessage] : null;
          },
          (started) => chat.replaceFrom(messageId, ...started),
        ),
      onSwitchBranch: async (messageId) => {
        try {
          const { data } = await client.mutate({ mutation: SwitchBranchMutation, variables: { messageId } });
          if (data) chat.replaceFrom(null, ...data.switchBranch);
        } catch (error) {
          fail(t("chat.actionFailed"), error);
        }
      },
      onFollowUp: (question) => void send.current(question),
      onRetry: (messageId) =>
        void startAnswer(
          { from: messageId, question: null, retry: true },
          async () => {
            const { data } = await client.mutate({
              mutation: RetryMessageMutation,
              variables: { messageId },
            });
            return data ? [data.retryMessage] : null;
          },
          (started) => chat.upsert(...started),
        ),
      onFeedback: async (messageId: string, rating: FeedbackRating, comment: string | null) => {
        try {
          const { data } = await client.mutate({
            mutation: SetFeedbackMutation,
            variables: { messageId, rating, comment },
          });
          if (data) chat.upsert(data.setFeedback);
          toast({ title: t("chat.feedbackThanks"), variant: "success" });
        } catch (error) {
          fail(t("chat.actionFailed"), error);
        }
      },
      onCopy: (message: Message) => {
        void navigator.clipboard?.writeText(message.content).then(
          () => toast({ title: t("chat.copied"), variant: "success" }),
          () => undefined,
        );
      },
    }),
    [client, chat.upsert, chat.replaceFrom, startAnswer, fail, t, toast, send],
  );
}
