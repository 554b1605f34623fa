import AutorenewRoundedIcon from "@mui/icons-material/AutorenewRounded";
import ContentCopyRoundedIcon from "@mui/icons-material/ContentCopyRounded";
import EditOutlinedIcon from "@mui/icons-material/EditOutlined";
import ErrorOutlineRoundedIcon from "@mui/icons-material/ErrorOutlineRounded";
import ReplayRoundedIcon from "@mui/icons-material/ReplayRounded";
import StopCircleOutlinedIcon from "@mui/icons-material/StopCircleOutlined";
import ThumbDownAltOutlinedIcon from "@mui/icons-material/ThumbDownAltOutlined";
import ThumbDownAltRoundedIcon from "@mui/icons-material/ThumbDownAltRounded";
import ThumbUpAltOutlinedIcon from "@mui/icons-material/ThumbUpAltOutlined";
import ThumbUpAltRoundedIcon from "@mui/icons-material/ThumbUpAltRounded";
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  Paper,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { memo, useState } from "react";
import type { FeedbackRating } from "../../../gql/graphql";
import type { MessageKey } from "../../../i18n/da";
import { dictionaries, useI18n } from "../../../i18n/i18n";
import { FEEDBACK_COMMENT_MAX_LENGTH } from "../constants";
import { isInProgress, type Message } from "../lib/messages";
import { AnswerBody } from "./AnswerBody";
import { BranchSwitcher, FollowUps, QuestionEditor } from "./BranchControls";

export interface MessageActions {
  onRetry: (messageId: string) => void;
  /** branches (BranchControls.tsx): resolves true when the edit was sent */
  onEdit: (messageId: string, content: string) => Promise<boolean>;
  onRegenerate: (messageId: string) => void;
  onSwitchBranch: (messageId: string) => void;
  onFollowUp: (question: string) => void;
  onFeedback: (messageId: string, rating: FeedbackRating, comment: string | null) => Promise<void>;
  onCopy: (message: Message) => void;
}

/** The error text in the user's language: Danish from the server, English by the error's code. */
function useErrorText(error: NonNullable<Message["error"]>): string {
  const { language, t } = useI18n();
  if (language === "da") return error.message;
  const key = `chat.error.${error.code}`;
  return Object.hasOwn(dictionaries.en, key) ? t(key as MessageKey) : error.message;
}

function AnswerError({ error }: { error: NonNullable<Message["error"]> }) {
  const text = useErrorText(error);
  return (
    <Alert
      severity="error"
      variant="outlined"
      icon={<ErrorOutlineRoundedIcon fontSize="inherit" />}
      data-testid="answer-error"
      sx={{ mt: 1 }}
    >
      {text}
    </Alert>
  );
}

function Feedback({ message, actions }: { message: Message; actions: MessageActions }) {
  const { t } = useI18n();
  const [comment, setComment] = useState("");
  const [asking, setAsking] = useState(false);
  const rating = message.feedback?.rating ?? null;
  const rate = (next: FeedbackRating) => {
    setAsking(true);
    void actions.onFeedback(message.id, next, message.feedback?.comment ?? null);
  };
  return (
    <>
      <Tooltip title={t("chat.helpful")}>
        <IconButton
          size="small"
          aria-label={t("chat.helpful")}
          aria-pressed={rating === "up"}
          onClick={() => rate("up")}
          color={rating === "up" ? "primary" : "default"}
        >
          {rating === "up" ? (
            <ThumbUpAltRoundedIcon fontSize="small" />
          ) : (
            <ThumbUpAltOutlinedIcon fontSize="small" />
          )}
        </IconButton>
      </Tooltip>
      <Tooltip title={t("chat.notHelpful")}>
        <IconButton
          size="small"
          aria-label={t("chat.notHelpful")}
          aria-pressed={rating === "down"}
          onClick={() => rate("down")}
          color={rating === "down" ? "primary" : "default"}
        >
          {rating === "down" ? (
            <ThumbDownAltRoundedIcon fontSize="small" />
          ) : (
            <ThumbDownAltOutlinedIcon fontSize="small" />
          )}
        </IconButton>
      </Tooltip>
      {asking && rating && (
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            void actions.onFeedback(message.id, rating, comment.trim() || null).then(() => setAsking(false));
          }}
          sx={{ display: "flex", gap: 1, alignItems: "center", flexBasis: "100%", mt: 0.5 }}
        >
          <TextField
            size="small"
            label={t("chat.feedbackComment")}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            slotProps={{ htmlInput: { maxLength: FEEDBACK_COMMENT_MAX_LENGTH } }}
            sx={{ flex: 1 }}
          />
          <Button type="submit" size="small" variant="outlined">
            {t("chat.feedbackSend")}
          </Button>
        </Box>
      )}
    </>
  );
}

interface RowState {
  /** the newest message of the shown branch (follow-ups show under it) */
  isLast?: boolean;
  /** an answer is being generated in the session: branch actions wait */
  busy?: boolean;
}

function AssistantMessage({
  message,
  actions,
  isLast,
  busy,
}: { message: Message; actions: MessageActions } & RowState) {
  const { t } = useI18n();
  const waiting = isInProgress(message) && message.content === "";
  const canRetry =
    message.status === "stopped" || (message.status === "error" && (message.error?.retryable ?? true));
  return (
    <Box data-testid="assistant-message" data-status={message.status ?? ""} sx={{ maxWidth: "100%" }}>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t("chat.assistant")}
      </Typography>
      {waiting ? (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, color: "text.secondary", py: 0.5 }}>
          <CircularProgress size={16} aria-hidden />
          <Typography variant="body2">{t("chat.generating")}</Typography>
        </Box>
      ) : (
        <AnswerBody message={message} />
      )}
      {message.status === "error" && message.error && <AnswerError error={message.error} />}
      {message.status === "stopped" && (
        <Box sx={{ display: "flex", gap: 1, alignItems: "center", color: "text.secondary", mt: 1 }}>
          <StopCircleOutlinedIcon fontSize="small" aria-hidden />
          <Typography variant="body2">{t("chat.stopped")}</Typography>
        </Box>
      )}
      {!isInProgress(message) && (
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 0.5, mt: 1 }}>
          {canRetry && (
            <Button
              size="small"
              variant="outlined"
              startIcon={<ReplayRoundedIcon />}
              onClick={() => actions.onRetry(message.id)}
            >
              {t("chat.retry")}
            </Button>
          )}
          {message.status === "complete" && (
            <>
              <Tooltip title={t("chat.copy")}>
                <IconButton size="small" aria-label={t("chat.copy")} onClick={() => actions.onCopy(message)}>
                  <ContentCopyRoundedIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Feedback message={message} actions={actions} />
            </>
          )}
          {message.status === "complete" && (
            <Tooltip title={t("chat.regenerate")}>
              <span>
                <IconButton
                  size="small"
                  aria-label={t("chat.regenerate")}
                  disabled={busy}
                  onClick={() => actions.onRegenerate(message.id)}
                >
                  <AutorenewRoundedIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
          <BranchSwitcher message={message} onSwitch={actions.onSwitchBranch} disabled={busy} />
        </Box>
      )}
      {isLast && message.status === "complete" && (
        <FollowUps questions={message.followUps ?? []} onAsk={actions.onFollowUp} disabled={busy} />
      )}
    </Box>
  );
}

function UserMessage({ message, actions, busy }: { message: Message; actions: MessageActions } & RowState) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <QuestionEditor
        initial={message.content}
        onSave={(text) => actions.onEdit(message.id, text)}
        onCancel={() => setEditing(false)}
      />
    );
  }
  return (
    <Box
      sx={{ display: "flex", justifyContent: "flex-end", alignItems: "center", gap: 0.5, flexWrap: "wrap" }}
    >
      <BranchSwitcher message={message} onSwitch={actions.onSwitchBranch} disabled={busy} align="flex-end" />
      <Tooltip title={t("chat.editQuestion")}>
        <span>
          <IconButton
            size="small"
            aria-label={t("chat.editQuestion")}
            disabled={busy}
            onClick={() => setEditing(true)}
          >
            <EditOutlinedIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Paper
        elevation={0}
        data-testid="user-message"
        aria-label={t("chat.you")}
        role="group"
        sx={{
          px: 2,
          py: 1.25,
          maxWidth: { xs: "88%", md: "75%" },
          bgcolor: "primary.main",
          color: "primary.contrastText",
          borderRadius: 3,
          borderBottomRightRadius: 6,
        }}
      >
        {/* plain text: whatever the user typed is shown as text, never as markup */}
        <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{message.content}</Typography>
      </Paper>
    </Box>
  );
}

/** One row of the message list. Memoised by message object: only a changed message re-renders. */
export const MessageItem = memo(function MessageItem({
  message,
  actions,
  isLast,
  busy,
}: {
  message: Message;
  actions: MessageActions;
} & RowState) {
  return message.role === "user" ? (
    <UserMessage message={message} actions={actions} busy={busy} />
  ) : (
    <AssistantMessage message={message} actions={actions} isLast={isLast} busy={busy} />
  );
});
