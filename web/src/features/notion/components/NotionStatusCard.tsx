import CloseRoundedIcon from "@mui/icons-material/CloseRounded";
import HelpOutlineRoundedIcon from "@mui/icons-material/HelpOutlineRounded";
import LinkOffRoundedIcon from "@mui/icons-material/LinkOffRounded";
import TaskAltRoundedIcon from "@mui/icons-material/TaskAltRounded";
import { Alert, Box, Button, CircularProgress, IconButton, Paper, Typography } from "@mui/material";
import { type ReactNode, useEffect, useState } from "react";
import { Link as RouterLink, useLocation, useNavigate } from "react-router-dom";
import { useT } from "../../../i18n/i18n";
import { useAuth } from "../../auth/hooks/useAuth";
import { NOTION_CONNECT_PATH } from "../constants";
import { useNotionStatus } from "../hooks/useNotionStatus";
import { type NotionReturn, notionReturnOf, withoutNotionParam } from "../lib/notion";
import { DisconnectDialog } from "./DisconnectDialog";

/**
 * Spec §2: on the chat page after Notion's OAuth flow (`?notion=connected`, or `?notion=error`), a card with the
 * connection's state: connected, not connected, or unknown with a retry. The parameter leaves the address at once
 * (replace, so Back does not bring it again); the card stays until closed.
 */
export function NotionStatusCard() {
  const location = useLocation();
  const navigate = useNavigate();
  const [shown, setShown] = useState<NotionReturn>(() => notionReturnOf(location.search));

  useEffect(() => {
    const value = notionReturnOf(location.search);
    if (!value) return;
    setShown(value);
    navigate(
      { pathname: location.pathname, search: withoutNotionParam(location.search), hash: location.hash },
      { replace: true },
    );
  }, [location, navigate]);

  if (!shown) return null;
  return <StatusCard returned={shown} onClose={() => setShown(null)} />;
}

function StatusCard({ returned, onClose }: { returned: NonNullable<NotionReturn>; onClose: () => void }) {
  const t = useT();
  const { user } = useAuth();
  const admin = Boolean(user?.isAdmin);
  const state = useNotionStatus({ toastOnError: true });
  const [confirming, setConfirming] = useState(false);
  const workspace = state.status?.workspace?.name ?? "Notion";

  let icon: ReactNode;
  let title: string;
  let text: string;
  let action: ReactNode = null;
  if (state.loading) {
    icon = <CircularProgress size={22} aria-hidden="true" />;
    title = t("notion.card.checking");
    text = "";
  } else if (state.unknown) {
    icon = <HelpOutlineRoundedIcon color="warning" />;
    title = t("notion.card.unknown");
    text = t("notion.card.unknownText");
    action = (
      <Button variant="outlined" onClick={state.retry}>
        {t("notion.retry")}
      </Button>
    );
  } else if (state.status?.connected) {
    icon = <TaskAltRoundedIcon color="success" />;
    title = t("notion.card.connected");
    text = t("notion.card.connectedText", { name: workspace });
    action = admin && (
      <>
        <Button component={RouterLink} to="/admin/notion" variant="contained">
          {t("notion.card.configure")}
        </Button>
        <Button color="error" startIcon={<LinkOffRoundedIcon />} onClick={() => setConfirming(true)}>
          {t("notion.card.disconnect")}
        </Button>
      </>
    );
  } else {
    icon = <LinkOffRoundedIcon color="action" />;
    title = t("notion.card.notConnected");
    text = t("notion.card.notConnectedText");
    action = admin && (
      <Button component="a" href={NOTION_CONNECT_PATH} variant="contained">
        {t("notion.card.connect")}
      </Button>
    );
  }

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="notion-card-title"
      data-testid="notion-status-card"
      sx={{ p: { xs: 2, md: 2.5 }, mb: { xs: 2, md: 3 }, borderRadius: { xs: 2, md: 3 } }}
    >
      <Box sx={{ display: "flex", gap: 1.5, alignItems: "flex-start" }}>
        <Box aria-hidden="true" sx={{ pt: 0.25, display: "flex" }}>
          {icon}
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }} role="status">
          <Typography id="notion-card-title" variant="h2" sx={{ fontSize: "1.05rem" }}>
            {title}
          </Typography>
          {text && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25, overflowWrap: "anywhere" }}>
              {text}
            </Typography>
          )}
        </Box>
        <IconButton aria-label={t("notion.card.close")} onClick={onClose} size="small">
          <CloseRoundedIcon fontSize="small" />
        </IconButton>
      </Box>
      {returned.result === "error" && (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          {t(returned.notConfigured ? "notion.card.oauthNotConfigured" : "notion.card.oauthError")}
        </Alert>
      )}
      {action && (
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mt: 1.5, pl: { sm: 4.5 } }}>{action}</Box>
      )}
      <DisconnectDialog
        open={confirming}
        workspace={workspace}
        pending={state.disconnecting}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void state.disconnect().then((ok) => ok && setConfirming(false))}
      />
    </Paper>
  );
}
