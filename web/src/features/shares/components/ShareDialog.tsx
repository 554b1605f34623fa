import { useMutation, useQuery } from "@apollo/client/react";
import ContentCopyRoundedIcon from "@mui/icons-material/ContentCopyRounded";
import LinkRoundedIcon from "@mui/icons-material/LinkRounded";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  ListItemText,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useRef, useState } from "react";
import { useI18n } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { formatDate } from "../../../lib/dates";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import {
  ChatSharesQuery,
  RevokeChatShareMutation,
  ShareChatSessionMutation,
} from "../graphql/shares.operations";

const STAMP: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
};

/**
 * Share one conversation: create a link to a snapshot of it as it is now, copy the link, and revoke this
 * conversation's links. Nothing shared is markup: titles and links are shown as text.
 */
export function ShareDialog({
  sessionId,
  title,
  onClose,
}: {
  sessionId: string;
  title: string;
  onClose: () => void;
}) {
  const { t, locale } = useI18n();
  const serverText = useServerMessage();
  const { toast } = useToast();
  const shares = useQuery(ChatSharesQuery, { fetchPolicy: "network-only" });
  const [create, creating] = useMutation(ShareChatSessionMutation);
  const [revoke] = useMutation(RevokeChatShareMutation);
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const linkField = useRef<HTMLInputElement>(null);
  const mine = (shares.data?.chatShares ?? []).filter((s) => s.sessionId === sessionId);

  const fail = (err: unknown) =>
    setError(serverText(toAppError(err).serverMessage) ?? t("chat.actionFailed"));

  const copy = (url: string) => {
    const done = () => toast({ title: t("share.copied"), variant: "success" });
    if (!navigator.clipboard) {
      linkField.current?.select();
      return;
    }
    navigator.clipboard.writeText(url).then(done, () => linkField.current?.select());
  };

  const onCreate = async () => {
    setError(null);
    try {
      const { data } = await create({ variables: { sessionId } });
      if (!data) return;
      setLink(data.shareChatSession.url);
      await shares.refetch();
      toast({ title: t("share.created"), variant: "success" });
    } catch (err) {
      fail(err);
    }
  };

  const onRevoke = async (shareId: string, url: string) => {
    setError(null);
    try {
      await revoke({ variables: { shareId } });
      if (link === url) setLink(null);
      await shares.refetch();
      toast({ title: t("share.revoked"), variant: "success" });
    } catch (err) {
      fail(err);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="share-dialog-title" fullWidth maxWidth="sm">
      <DialogTitle id="share-dialog-title" sx={{ pb: 0.5 }}>
        {t("share.dialogTitle")}
      </DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ fontWeight: 600, mb: 1, overflowWrap: "anywhere" }}>
          {title}
        </Typography>
        <DialogContentText sx={{ mb: 2 }}>{t("share.intro")}</DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        )}
        {link ? (
          <Box
            sx={{
              display: "flex",
              flexDirection: { xs: "column", sm: "row" },
              gap: 1,
              alignItems: { xs: "stretch", sm: "flex-start" },
            }}
          >
            <TextField
              label={t("share.linkLabel")}
              value={link}
              inputRef={linkField}
              fullWidth
              size="small"
              slotProps={{ htmlInput: { readOnly: true, "data-testid": "share-link" } }}
              onFocus={(e) => e.target.select()}
            />
            <Button
              variant="contained"
              startIcon={<ContentCopyRoundedIcon />}
              onClick={() => copy(link)}
              sx={{ flexShrink: 0 }}
            >
              {t("share.copy")}
            </Button>
          </Box>
        ) : (
          <Button
            variant="contained"
            startIcon={<LinkRoundedIcon />}
            onClick={() => void onCreate()}
            disabled={creating.loading}
            data-testid="share-create"
          >
            {creating.loading ? t("share.creating") : t("share.create")}
          </Button>
        )}
        <Typography variant="subtitle2" component="h3" sx={{ mt: 3 }}>
          {t("share.existing")}
        </Typography>
        {mine.length === 0 ? (
          <Typography color="text.secondary" variant="body2" sx={{ mt: 0.5 }}>
            {t("share.none")}
          </Typography>
        ) : (
          <List dense disablePadding data-testid="share-list">
            {mine.map((s) => {
              const date = formatDate(s.createdAt, locale, STAMP);
              return (
                <ListItem
                  key={s.id}
                  disableGutters
                  secondaryAction={
                    <Box sx={{ display: "flex", gap: 0.5 }}>
                      <Tooltip title={t("share.copy")}>
                        <IconButton aria-label={t("share.copy")} onClick={() => copy(s.url)} size="small">
                          <ContentCopyRoundedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Button
                        size="small"
                        color="error"
                        onClick={() => void onRevoke(s.id, s.url)}
                        aria-label={t("share.revokeLabel", { date })}
                      >
                        {t("share.revoke")}
                      </Button>
                    </Box>
                  }
                  sx={{ pr: 17 }}
                >
                  <ListItemText
                    primary={t("share.sharedAt", { date })}
                    secondary={s.url}
                    slotProps={{ secondary: { sx: { overflowWrap: "anywhere" } } }}
                  />
                </ListItem>
              );
            })}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("share.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
