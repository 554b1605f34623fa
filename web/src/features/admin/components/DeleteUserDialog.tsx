import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
} from "@mui/material";
import { useT } from "../../../i18n/i18n";
import { useDeleteUser } from "../hooks/useDeleteUser";
import type { AdminUserItem } from "../lib/users";

/** 'Slet bruger' (spec §2, §4): lists what is removed; 'Sletter...' while pending; closes on cancel or success. */
export function DeleteUserDialog({ user, onClose }: { user: AdminUserItem | null; onClose: () => void }) {
  const t = useT();
  const { deleteUser, loading } = useDeleteUser();
  const close = () => {
    if (!loading) onClose();
  };
  const confirm = async () => {
    if (user && (await deleteUser(user.id))) onClose();
  };
  return (
    <Dialog
      open={user !== null}
      onClose={close}
      fullWidth
      maxWidth="xs"
      aria-labelledby="admin-delete-title"
      aria-describedby="admin-delete-text"
    >
      <DialogTitle id="admin-delete-title">{t("admin.delete.title")}</DialogTitle>
      <DialogContent>
        <DialogContentText id="admin-delete-text" sx={{ overflowWrap: "anywhere" }}>
          {t("admin.delete.text", { user: user ? user.email || user.username : "" })}
        </DialogContentText>
        <List dense sx={{ listStyle: "disc", pl: 3 }}>
          {(["conversations", "bookmarks", "preferences", "account"] as const).map((what) => (
            <ListItem key={what} sx={{ display: "list-item", py: 0 }}>
              <ListItemText primary={t(`admin.delete.removes.${what}`)} />
            </ListItem>
          ))}
        </List>
        <DialogContentText>{t("admin.delete.irreversible")}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={loading}>
          {t("admin.cancel")}
        </Button>
        <Button variant="contained" color="error" onClick={() => void confirm()} disabled={loading}>
          {loading ? t("admin.delete.pending") : t("admin.delete.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
