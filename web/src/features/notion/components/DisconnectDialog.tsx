import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from "@mui/material";
import { useT } from "../../../i18n/i18n";

/** Asks before the Notion connection is removed. */
export function DisconnectDialog({
  open,
  workspace,
  pending,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  workspace: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const t = useT();
  return (
    <Dialog open={open} onClose={() => !pending && onCancel()} aria-labelledby="notion-disconnect-title">
      <DialogTitle id="notion-disconnect-title">{t("notion.connection.disconnectTitle")}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t("notion.connection.disconnectText", { name: workspace })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          {t("notion.connection.cancel")}
        </Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={pending}>
          {pending ? t("notion.connection.disconnecting") : t("notion.connection.disconnect")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
