import { useQuery } from "@apollo/client/react";
import LinkOffRoundedIcon from "@mui/icons-material/LinkOffRounded";
import VisibilityOutlinedIcon from "@mui/icons-material/VisibilityOutlined";
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Paper,
  Stack,
  Typography,
} from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useI18n } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";
import { toAppError } from "../../../lib/errors";
import { AnswerBody } from "../../chat/components/AnswerBody";
import type { Message } from "../../chat/lib/messages";
import { shownSessionTitle } from "../../chat/lib/sessionTitle";
import { SharedChatQuery } from "../graphql/shares.operations";

/** A question of the snapshot: plain text (never markup), like the chat's own bubble. */
function SharedQuestion({ message }: { message: Message }) {
  const { t } = useI18n();
  return (
    <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
      <Paper
        elevation={0}
        role="group"
        aria-label={t("chat.you")}
        data-testid="user-message"
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
        <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{message.content}</Typography>
      </Paper>
    </Box>
  );
}

function SharedAnswer({ message }: { message: Message }) {
  const { t } = useI18n();
  return (
    <Box data-testid="assistant-message" data-status={message.status ?? ""}>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t("chat.assistant")}
      </Typography>
      <AnswerBody message={message} />
      {message.status === "stopped" && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t("chat.stopped")}
        </Typography>
      )}
    </Box>
  );
}

function NotShared() {
  const { t } = useI18n();
  return (
    <Card data-testid="shared-not-found" sx={{ maxWidth: 560, mx: "auto", mt: { xs: 2, md: 6 } }}>
      <CardContent sx={{ p: { xs: 3, sm: 5 }, textAlign: "center" }}>
        <LinkOffRoundedIcon color="error" sx={{ fontSize: 52, mb: 1 }} aria-hidden="true" />
        <Typography variant="h1" sx={{ fontSize: { xs: "1.45rem", sm: "1.8rem" } }}>
          {t("shared.notFoundTitle")}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3 }}>
          {t("shared.notFoundText")}
        </Typography>
        <Button component={RouterLink} to="/" variant="contained">
          {t("shared.toChat")}
        </Button>
      </CardContent>
    </Card>
  );
}

/** /shared/:shareId — a conversation a colleague shared: read-only, no composer, no feedback; sources link. */
export function SharedChatScreen({ shareId }: { shareId: string }) {
  const { t, locale } = useI18n();
  const { data, loading, error, refetch } = useQuery(SharedChatQuery, {
    variables: { shareId },
    fetchPolicy: "network-only",
  });
  if (loading && !data) {
    return (
      <Box sx={{ display: "flex", justifyContent: "center", alignItems: "center", gap: 1.5, py: 8 }}>
        <CircularProgress size={22} />
        <Typography color="text.secondary">{t("chat.loading")}</Typography>
      </Box>
    );
  }
  if (error && toAppError(error).code === "NOT_FOUND") return <NotShared />;
  if (error || !data) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void refetch()}>
            {t("chat.retryLoad")}
          </Button>
        }
      >
        {t("shared.loadFailed")}
      </Alert>
    );
  }
  const shared = data.sharedChat;
  return (
    <Box component="article" aria-labelledby="shared-title" sx={{ maxWidth: 860, mx: "auto" }}>
      <Box sx={{ mb: 2 }}>
        <Chip
          icon={<VisibilityOutlinedIcon />}
          label={t("shared.readOnly")}
          size="small"
          variant="outlined"
          sx={{ mb: 1 }}
        />
        <Typography
          id="shared-title"
          variant="h1"
          sx={{ fontSize: { xs: "1.4rem", md: "1.8rem" }, overflowWrap: "anywhere" }}
          data-testid="shared-title"
        >
          {shownSessionTitle(shared, t("chat.untitled"))}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }} data-testid="shared-by">
          {t("shared.by", { name: shared.ownerName, date: formatDate(shared.sharedAt, locale) })}
        </Typography>
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, md: 3 }, borderRadius: { xs: 2, md: 3 } }}>
        <Stack spacing={2.5} aria-label={t("chat.messageList")} component="section">
          {shared.messages.map((m) =>
            m.role === "user" ? (
              <SharedQuestion key={m.id} message={m} />
            ) : (
              <SharedAnswer key={m.id} message={m} />
            ),
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
