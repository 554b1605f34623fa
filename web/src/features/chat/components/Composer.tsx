import ArrowUpwardRoundedIcon from "@mui/icons-material/ArrowUpwardRounded";
import StopRoundedIcon from "@mui/icons-material/StopRounded";
import { Box, IconButton, InputBase, Paper, Tooltip, Typography } from "@mui/material";
import { type ReactNode, useId, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { CHAT_MESSAGE_MAX_LENGTH } from "../constants";
import { typedHash } from "../lib/scope";

/**
 * The question field: grows with its text (up to a limit, then scrolls), Enter sends, Shift+Enter adds a line,
 * an empty or whitespace-only question is not sent. While an answer streams, the send button stops it.
 */
export function Composer({
  onSend,
  onStop,
  streaming,
  disabled,
  scopeBar,
  onHash,
}: {
  /** resolves true when the question was accepted (the field then clears) */
  onSend: (content: string) => Promise<boolean>;
  onStop: () => void;
  streaming: boolean;
  disabled?: boolean;
  /** the scope control shown above the field (issue 17) */
  scopeBar?: ReactNode;
  /** a `#` typed at the start of a word: the `#` is taken out and this opens the article picker */
  onHash?: () => void;
}) {
  const t = useT();
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const empty = text.trim() === "";

  const send = async () => {
    if (empty || sending || disabled || streaming) return;
    setSending(true);
    const content = text;
    setText("");
    const ok = await onSend(content).catch(() => false);
    if (!ok) setText(content);
    setSending(false);
  };

  return (
    <Box sx={{ px: { xs: 1.5, md: 3 }, pb: { xs: 1.5, md: 1 }, pt: 1 }}>
      {scopeBar}
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
        sx={{
          maxWidth: 820,
          mx: "auto",
          display: "flex",
          alignItems: "flex-end",
          gap: 1,
          pl: 2,
          pr: 1,
          py: 1,
          borderRadius: 3,
          "&:focus-within": {
            borderColor: "primary.main",
            boxShadow: (th) => `0 0 0 1px ${th.palette.primary.main}`,
          },
        }}
      >
        <label
          htmlFor={inputId}
          style={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" }}
        >
          {t("chat.inputLabel")}
        </label>
        <InputBase
          id={inputId}
          multiline
          maxRows={8}
          minRows={1}
          value={text}
          onChange={(e) => {
            const withoutHash = onHash ? typedHash(text, e.target.value, e.target.selectionStart) : null;
            setText(withoutHash ?? e.target.value);
            if (withoutHash !== null) onHash?.();
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
          placeholder={t("chat.inputPlaceholder")}
          inputProps={{
            maxLength: CHAT_MESSAGE_MAX_LENGTH,
            "data-testid": "chat-input",
            "aria-describedby": hintId,
          }}
          sx={{ flex: 1, py: 0.75, fontSize: "1rem" }}
        />
        {streaming ? (
          <Tooltip title={t("chat.stop")}>
            <IconButton
              aria-label={t("chat.stop")}
              onClick={onStop}
              color="primary"
              sx={{ border: 1, borderColor: "primary.main" }}
            >
              <StopRoundedIcon />
            </IconButton>
          </Tooltip>
        ) : (
          <Tooltip title={t("chat.send")}>
            <span>
              <IconButton
                type="submit"
                aria-label={t("chat.send")}
                disabled={empty || sending || disabled}
                sx={{
                  bgcolor: "primary.main",
                  color: "primary.contrastText",
                  "&:hover": { bgcolor: "primary.dark" },
                  "&.Mui-disabled": { bgcolor: "action.disabledBackground" },
                }}
              >
                <ArrowUpwardRoundedIcon />
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Paper>
      <Typography
        id={hintId}
        variant="caption"
        color="text.secondary"
        component="p"
        sx={{ textAlign: "center", mt: 0.75, display: { xs: "none", md: "block" } }}
      >
        {t("chat.inputHint")}
      </Typography>
    </Box>
  );
}
