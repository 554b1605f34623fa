import CheckCircleRoundedIcon from "@mui/icons-material/CheckCircleRounded";
import LinkOffRoundedIcon from "@mui/icons-material/LinkOffRounded";
import LoginRoundedIcon from "@mui/icons-material/LoginRounded";
import { Alert, Box, Button, Card, CardContent, Skeleton, TextField, Typography } from "@mui/material";
import { type FormEvent, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { NOTION_CONNECT_PATH, NOTION_TOKEN_MAX_LENGTH } from "../constants";
import type { NotionStatusState } from "../hooks/useNotionStatus";
import { DisconnectDialog } from "./DisconnectDialog";

const VIA_KEYS = {
  token: "notion.connection.via.token",
  oauth: "notion.connection.via.oauth",
  env: "notion.connection.via.env",
} as const;

/** The workspace the admin is connected to (with disconnect), or the two ways to connect: a token or OAuth. */
export function NotionConnectionCard({ state }: { state: NotionStatusState }) {
  const t = useT();
  const [token, setToken] = useState("");
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { status } = state;
  const workspace = status?.workspace?.name ?? "Notion";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) return;
    const result = await state.connect(value);
    if (result.ok) {
      setToken("");
      setTokenError(null);
    } else setTokenError(result.message ?? t("notion.connection.connectFailed"));
  };

  const disconnect = async () => {
    if (await state.disconnect()) setConfirming(false);
  };

  let body: React.ReactNode;
  if (state.loading) body = <Skeleton variant="rounded" height={56} />;
  else if (state.unknown)
    body = (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={state.retry}>
            {t("notion.retry")}
          </Button>
        }
      >
        {t("notion.card.unknownText")}
      </Alert>
    );
  else if (status?.connected) {
    const via = status.via && status.via in VIA_KEYS ? VIA_KEYS[status.via as keyof typeof VIA_KEYS] : null;
    body = (
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
        <CheckCircleRoundedIcon color="success" aria-hidden="true" />
        <Box sx={{ flex: "1 1 200px", minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: "anywhere" }} data-testid="notion-workspace">
            {t("notion.connection.connected", { name: workspace })}
          </Typography>
          {via && (
            <Typography variant="body2" color="text.secondary">
              {t(via)}
            </Typography>
          )}
        </Box>
        <Button
          variant="outlined"
          color="error"
          startIcon={<LinkOffRoundedIcon />}
          onClick={() => setConfirming(true)}
        >
          {t("notion.connection.disconnect")}
        </Button>
      </Box>
    );
  } else
    body = (
      <>
        <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
          {t("notion.connection.notConnectedText")}
        </Typography>
        <Box
          component="form"
          onSubmit={(e) => void submit(e)}
          noValidate
          sx={{ display: "flex", gap: 1.5, alignItems: "flex-start", flexWrap: "wrap" }}
        >
          <TextField
            label={t("notion.connection.token")}
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => {
              setToken(e.target.value);
              setTokenError(null);
            }}
            error={Boolean(tokenError)}
            helperText={tokenError ?? t("notion.connection.tokenHelp")}
            slotProps={{ htmlInput: { maxLength: NOTION_TOKEN_MAX_LENGTH, spellCheck: false } }}
            size="small"
            sx={{ flex: "1 1 260px" }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={state.connecting || !token.trim()}
            sx={{ mt: 0.25 }}
          >
            {state.connecting ? t("notion.connection.connecting") : t("notion.connection.connect")}
          </Button>
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, mt: 2, flexWrap: "wrap" }}>
          <Typography variant="body2" color="text.secondary">
            {t("notion.connection.or")}
          </Typography>
          <Button
            component="a"
            href={NOTION_CONNECT_PATH}
            variant="outlined"
            startIcon={<LoginRoundedIcon />}
          >
            {t("notion.connection.oauth")}
          </Button>
        </Box>
      </>
    );

  return (
    <Card component="section" aria-labelledby="notion-connection-title">
      <CardContent sx={{ p: { xs: 2, md: 3 } }}>
        <Box sx={{ display: "flex", alignItems: "baseline", gap: 1, mb: 1.5, flexWrap: "wrap" }}>
          <Typography id="notion-connection-title" variant="h2" sx={{ fontSize: "1.2rem" }}>
            {t("notion.connection.title")}
          </Typography>
          {!state.loading && !state.unknown && !status?.connected && (
            <Typography variant="body2" color="text.secondary">
              · {t("notion.connection.notConnected")}
            </Typography>
          )}
        </Box>
        {body}
      </CardContent>
      <DisconnectDialog
        open={confirming}
        workspace={workspace}
        pending={state.disconnecting}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void disconnect()}
      />
    </Card>
  );
}
