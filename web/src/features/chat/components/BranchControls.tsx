/**
 * Branches of a conversation in the message list: "‹ 2 / 3 ›" between alternatives, the inline question editor,
 * and the follow-up suggestions under the latest answer. Texts are shown as text, never as markup.
 */
import ChevronLeftRoundedIcon from "@mui/icons-material/ChevronLeftRounded";
import ChevronRightRoundedIcon from "@mui/icons-material/ChevronRightRounded";
import { Box, Button, Chip, IconButton, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useI18n } from "../../../i18n/i18n";
import { CHAT_MESSAGE_MAX_LENGTH } from "../constants";
import type { Message } from "../lib/messages";

/** "‹ 2 / 3 ›" when a message has alternatives; nothing otherwise. */
export function BranchSwitcher({
  message,
  onSwitch,
  disabled,
  align = "flex-start",
}: {
  message: Message;
  onSwitch: (messageId: string) => void;
  disabled?: boolean;
  align?: "flex-start" | "flex-end";
}) {
  const { t } = useI18n();
  const ids = message.siblingIds ?? [];
  const index = (message.siblingIndex ?? 1) - 1;
  const count = message.siblingCount ?? 1;
  if (count <= 1 || ids.length !== count) return null;
  const previous = ids[index - 1];
  const next = ids[index + 1];
  return (
    <Box
      role="group"
      aria-label={t("chat.branchPosition", { index: index + 1, count })}
      data-testid="branch-switcher"
      sx={{
        display: "flex",
        alignItems: "center",
        justifyContent: align,
        gap: 0.25,
        color: "text.secondary",
      }}
    >
      <IconButton
        size="small"
        aria-label={t("chat.branchPrevious")}
        disabled={disabled || !previous}
        onClick={() => previous && onSwitch(previous)}
      >
        <ChevronLeftRoundedIcon fontSize="small" />
      </IconButton>
      <Typography variant="caption" component="span" aria-hidden sx={{ minWidth: 36, textAlign: "center" }}>
        {index + 1} / {count}
      </Typography>
      <IconButton
        size="small"
        aria-label={t("chat.branchNext")}
        disabled={disabled || !next}
        onClick={() => next && onSwitch(next)}
      >
        <ChevronRightRoundedIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

/** The inline editor of a question: Gem / Annuller (Escape cancels, Ctrl/Cmd+Enter saves). */
export function QuestionEditor({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (text: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const trimmed = text.trim();
  const save = async () => {
    if (!trimmed || saving) return;
    setSaving(true);
    const ok = await onSave(trimmed);
    setSaving(false);
    if (ok) onCancel();
  };
  return (
    <Box
      component="form"
      data-testid="question-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      sx={{ display: "flex", flexDirection: "column", gap: 1, width: { xs: "100%", md: "75%" }, ml: "auto" }}
    >
      <TextField
        multiline
        minRows={2}
        maxRows={8}
        autoFocus
        label={t("chat.editField")}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onCancel();
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void save();
          }
        }}
        slotProps={{ htmlInput: { maxLength: CHAT_MESSAGE_MAX_LENGTH } }}
      />
      <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end" }}>
        <Button size="small" onClick={onCancel} disabled={saving}>
          {t("chat.editCancel")}
        </Button>
        <Button size="small" type="submit" variant="contained" disabled={!trimmed || saving}>
          {t("chat.editSave")}
        </Button>
      </Box>
    </Box>
  );
}

/** Follow-up questions as chips; a click asks it. */
export function FollowUps({
  questions,
  onAsk,
  disabled,
}: {
  questions: readonly string[];
  onAsk: (question: string) => void;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  if (questions.length === 0) return null;
  return (
    <Box
      component="nav"
      aria-label={t("chat.followUps")}
      data-testid="follow-ups"
      sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 1.5 }}
    >
      {questions.map((q) => (
        <Chip
          key={q}
          label={q}
          variant="outlined"
          color="primary"
          clickable
          disabled={disabled}
          onClick={() => onAsk(q)}
          sx={{ maxWidth: "100%", height: "auto", "& .MuiChip-label": { whiteSpace: "normal", py: 0.75 } }}
        />
      ))}
    </Box>
  );
}
