import IosShareRoundedIcon from "@mui/icons-material/IosShareRounded";
import { Button } from "@mui/material";
import { useState } from "react";
import { useI18n } from "../../../i18n/i18n";
import { ShareDialog } from "./ShareDialog";

/** "Del" in the chat header: opens the share dialog of the conversation shown. */
export function ShareChatButton({
  sessionId,
  title,
  disabled,
}: {
  sessionId: string;
  title: string;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<IosShareRoundedIcon />}
        onClick={() => setOpen(true)}
        disabled={disabled}
        aria-label={t("share.buttonLabel")}
        aria-haspopup="dialog"
        data-testid="share-chat"
        sx={{ ml: "auto", flexShrink: 0 }}
      >
        {t("share.button")}
      </Button>
      {open && <ShareDialog sessionId={sessionId} title={title} onClose={() => setOpen(false)} />}
    </>
  );
}
