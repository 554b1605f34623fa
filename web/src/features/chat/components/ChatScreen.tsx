import { useApolloClient, useQuery } from "@apollo/client/react";
import ForumRoundedIcon from "@mui/icons-material/ForumRounded";
import MenuOpenRoundedIcon from "@mui/icons-material/MenuOpenRounded";
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Drawer,
  IconButton,
  Paper,
  Typography,
  useMediaQuery,
  useTheme,
} from "@mui/material";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useI18n } from "../../../i18n/i18n";
import { type ServerMessage, useServerMessage } from "../../../i18n/serverMessage";
import { failureToast, toAppError } from "../../../lib/errors";
import { ShareChatButton } from "../../shares/components/ShareChatButton";
import { useToast } from "../../toast/hooks/useToast";
import { SESSION_SEARCH_DEBOUNCE_MS, SIDEBAR_WIDTH } from "../constants";
import {
  CreateSessionMutation,
  DeleteSessionMutation,
  ExportSessionQuery,
  RenameSessionMutation,
  SearchSessionsQuery,
  SendMessageMutation,
  SessionsQuery,
  StopMessageMutation,
} from "../graphql/chat.operations";
import { useChatMessages } from "../hooks/useChatMessages";
import { useChatScope } from "../hooks/useChatScope";
import { useMessageActions } from "../hooks/useMessageActions";
import { usePendingAnswer } from "../hooks/usePendingAnswer";
import { plainAnnouncement } from "../lib/announce";
import { downloadMarkdown } from "../lib/download";
import { isInProgress } from "../lib/messages";
import { shownSessionTitle } from "../lib/sessionTitle";
import { Composer } from "./Composer";
import { MessageList } from "./MessageList";
import { ScopeBar } from "./ScopeBar";
import { type Session, SessionSidebar } from "./SessionSidebar";

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The chat (spec §2 '/'): session sidebar, message pane, question field. */
export function ChatScreen() {
  const { t } = useI18n();
  const serverMessage = useServerMessage();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { toast } = useToast();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up("md"), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Session | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  // a question refused because its session is full (CHAT_SESSION_FULL): said above the question field with a way
  // to a new chat, the typed text kept in the field
  const [fullSession, setFullSession] = useState<{ sessionId: string; message: ServerMessage | null } | null>(
    null,
  );

  const sessionsQuery = useQuery(SessionsQuery, { fetchPolicy: "cache-and-network" });
  const query = useDebounced(search.trim(), SESSION_SEARCH_DEBOUNCE_MS);
  const searchQuery = useQuery(SearchSessionsQuery, {
    variables: { query },
    skip: !query,
    fetchPolicy: "network-only",
  });
  const allSessions = sessionsQuery.data?.sessions ?? [];
  const searching = Boolean(search.trim());
  const shown = searching ? (query ? (searchQuery.data?.searchSessions ?? []) : []) : allSessions;

  // a session created here, until the list holds it: a list read before the creation may still answer after it
  // (the client folds the read after the creation into one still in flight), so it is read again, not deselected
  const created = useRef<string | null>(null);
  // spec §2: the first session is auto-selected when none is chosen
  // biome-ignore lint/correctness/useExhaustiveDependencies: sessionsQuery.refetch is stable
  useEffect(() => {
    if (!selectedId && allSessions[0]) setSelectedId(allSessions[0].sessionId);
    if (!selectedId || !sessionsQuery.data) return;
    const listed = allSessions.some((s) => s.sessionId === selectedId);
    if (listed && created.current === selectedId) created.current = null;
    if (listed) return;
    if (created.current === selectedId) {
      created.current = null;
      void sessionsQuery.refetch();
      return;
    }
    setSelectedId(allSessions[0]?.sessionId ?? null);
  }, [allSessions, selectedId, sessionsQuery.data]);

  const chat = useChatMessages(selectedId, {
    onTitled: () => void Promise.all([sessionsQuery.refetch(), query ? searchQuery.refetch() : null]),
  });
  const pending = usePendingAnswer(chat.messages, selectedId);
  const selected = allSessions.find((s) => s.sessionId === selectedId) ?? null;
  const streamingMessage = chat.messages.findLast(isInProgress) ?? null;

  // a screen reader hears the finished answer once, not every token
  // biome-ignore lint/correctness/useExhaustiveDependencies: announce once per finished event only
  useEffect(() => {
    if (!chat.finished) return;
    const m = chat.finished.message;
    const head =
      m.status === "complete"
        ? t("chat.answerReady")
        : m.status === "stopped"
          ? t("chat.answerStopped")
          : t("chat.answerFailed");
    setAnnouncement(`${head}. ${plainAnnouncement(m.content)}`);
    void sessionsQuery.refetch();
  }, [chat.finished]);

  const fail = useCallback(
    (title: string, error: unknown) => {
      const e = toAppError(error);
      if (e.code === "UNAUTHENTICATED") {
        navigate("/login");
        return;
      }
      toast({ ...failureToast(title, e, serverMessage), variant: "destructive" });
    },
    [navigate, serverMessage, toast],
  );

  /** `onCreated` is called in the update that selects the new session */
  const createSession = async (onCreated?: (id: string) => void): Promise<string | null> => {
    setCreating(true);
    try {
      const { data } = await client.mutate({ mutation: CreateSessionMutation, variables: {} });
      const id = data?.createSession.sessionId ?? null;
      await sessionsQuery.refetch();
      if (id) {
        created.current = id;
        onCreated?.(id);
        setSelectedId(id);
      }
      setSearch("");
      setDrawerOpen(false);
      return id;
    } catch (error) {
      fail(t("chat.actionFailed"), error);
      return null;
    } finally {
      setCreating(false);
    }
  };

  const scope = useChatScope({
    sessionId: selectedId,
    sessionScope: selected?.scope,
    createSession: () => createSession(),
    onError: (error) => fail(t("chat.scope.failed"), error),
  });

  const send = async (content: string): Promise<boolean> => {
    const text = content.trim();
    if (!text) return false;
    const pendingScope = selectedId ? undefined : scope.pendingInput();
    // the question and "Genererer svar..." show from now on, also while the send creates the session
    const started = pending.begin({ question: text });
    const sessionId = selectedId ?? (await createSession((id) => pending.created(started, id)));
    if (!sessionId) {
      pending.end(started);
      return false;
    }
    try {
      const { data } = await client.mutate({
        mutation: SendMessageMutation,
        variables: { sessionId, content: text, scope: pendingScope },
      });
      const { userMessage, assistantMessage } = data?.sendMessage ?? {};
      pending.end(started, ...(userMessage && assistantMessage ? [userMessage, assistantMessage] : []));
      if (userMessage && assistantMessage) chat.addStarted(userMessage, assistantMessage);
      void sessionsQuery.refetch();
      return true;
    } catch (error) {
      pending.end(started);
      const e = toAppError(error);
      if (e.code === "CHAT_SESSION_FULL") setFullSession({ sessionId, message: e.serverMessage });
      else fail(t("chat.sendFailed"), error);
      return false;
    }
  };

  const stop = async () => {
    if (!streamingMessage) return;
    try {
      const { data } = await client.mutate({
        mutation: StopMessageMutation,
        variables: { messageId: streamingMessage.id },
      });
      if (data) chat.upsert(data.stopMessage);
    } catch (error) {
      fail(t("chat.actionFailed"), error);
    }
  };

  // follow-up chips ask through the same send as the question field
  const sendRef = useRef(send);
  sendRef.current = send;

  const actions = useMessageActions({ chat, pending, fail, send: sendRef });

  const rename = async (sessionId: string, title: string) => {
    try {
      await client.mutate({ mutation: RenameSessionMutation, variables: { sessionId, title } });
      await Promise.all([sessionsQuery.refetch(), query ? searchQuery.refetch() : null]);
      toast({ title: t("chat.renamed"), variant: "success" });
      return true;
    } catch (error) {
      fail(t("chat.actionFailed"), error);
      return false;
    }
  };

  const exportSession = async (session: Session) => {
    try {
      const { data } = await client.query({
        query: ExportSessionQuery,
        variables: { sessionId: session.sessionId },
        fetchPolicy: "no-cache",
      });
      if (data) downloadMarkdown(data.exportSession, shownSessionTitle(session, t("chat.untitled")));
    } catch (error) {
      fail(t("chat.actionFailed"), error);
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await client.mutate({ mutation: DeleteSessionMutation, variables: { sessionId: toDelete.sessionId } });
      if (toDelete.sessionId === selectedId) setSelectedId(null);
      await Promise.all([sessionsQuery.refetch(), query ? searchQuery.refetch() : null]);
      toast({ title: t("chat.deleted"), variant: "success" });
      setToDelete(null);
    } catch (error) {
      fail(t("chat.actionFailed"), error);
    } finally {
      setDeleting(false);
    }
  };

  const sidebar = (
    <SessionSidebar
      sessions={shown}
      loading={searching ? searchQuery.loading || query !== search.trim() : sessionsQuery.loading}
      selectedId={selectedId}
      search={search}
      onSearch={setSearch}
      onSelect={(id) => {
        setSelectedId(id);
        setDrawerOpen(false);
      }}
      onNew={() => void createSession()}
      onRename={rename}
      onExport={(s) => void exportSession(s)}
      onDelete={setToDelete}
      creating={creating}
    />
  );

  return (
    <Paper
      variant="outlined"
      sx={{
        display: "flex",
        overflow: "hidden",
        borderRadius: { xs: 2, md: 3 },
        height: { xs: "calc(100dvh - 92px)", md: "calc(100dvh - 116px)" },
        minHeight: 420,
        my: { xs: -1, md: -2 },
      }}
    >
      {desktop ? (
        <Box
          sx={{
            width: SIDEBAR_WIDTH,
            flexShrink: 0,
            borderRight: 1,
            borderColor: "divider",
            bgcolor: "background.default",
          }}
        >
          {sidebar}
        </Box>
      ) : (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          // backgroundImage none: in dark mode MUI lightens elevated paper with a white overlay, which turned the
          // drawer grey against the navy chat card; the drawer now has the same paper colour as the desktop sidebar.
          slotProps={{ paper: { sx: { width: "min(88vw, 340px)", backgroundImage: "none" } } }}
        >
          {sidebar}
        </Drawer>
      )}
      <Box
        component="section"
        aria-label={t("chat.title")}
        sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}
      >
        <Box
          sx={{
            display: "flex",
            alignItems: "center",
            gap: 1,
            px: { xs: 1, md: 3 },
            py: 1,
            minHeight: 52,
            borderBottom: 1,
            borderColor: "divider",
          }}
        >
          {!desktop && (
            <IconButton
              aria-label={t("chat.openSessions")}
              onClick={() => setDrawerOpen(true)}
              data-testid="open-sessions"
            >
              <MenuOpenRoundedIcon />
            </IconButton>
          )}
          <Typography
            variant="h1"
            noWrap
            sx={{ fontSize: "1.1rem", fontWeight: 600 }}
            data-testid="chat-title"
          >
            {selected ? shownSessionTitle(selected, t("chat.untitled")) : t("chat.newChat")}
          </Typography>
          {selected && (
            <ShareChatButton
              sessionId={selected.sessionId}
              title={shownSessionTitle(selected, t("chat.untitled"))}
              disabled={chat.messages.length === 0}
            />
          )}
        </Box>
        {chat.error ? (
          <Box sx={{ p: 3 }}>
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={chat.reload}>
                  {t("chat.retryLoad")}
                </Button>
              }
            >
              {t("chat.messagesError")}
            </Alert>
          </Box>
        ) : chat.loading && pending.messages.length === 0 ? (
          <Box sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "center", gap: 1.5 }}>
            <CircularProgress size={22} />
            <Typography color="text.secondary">{t("chat.loading")}</Typography>
          </Box>
        ) : pending.messages.length === 0 ? (
          <Box sx={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "center", p: 3 }}>
            <Box sx={{ textAlign: "center", maxWidth: 460 }}>
              <ForumRoundedIcon color="primary" sx={{ fontSize: 44, opacity: 0.85 }} aria-hidden />
              <Typography variant="h2" sx={{ fontSize: "1.35rem", mt: 1 }}>
                {t("chat.emptyTitle")}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {t("chat.emptyText")}
              </Typography>
            </Box>
          </Box>
        ) : (
          <MessageList
            key={pending.listKey}
            messages={pending.messages}
            rowKey={pending.rowKey}
            actions={actions}
            busy={chat.inProgress || pending.waiting}
            hasEarlier={chat.hasEarlier}
            loadingEarlier={chat.loadingEarlier}
            onLoadEarlier={chat.loadEarlier}
          />
        )}
        {fullSession && fullSession.sessionId === selectedId && (
          <Box sx={{ px: { xs: 1, md: 3 }, pt: 1 }}>
            {/* the button under the text, not as the Alert's action: beside it, it wrapped to three lines at 390 px */}
            <Alert severity="warning" data-testid="session-full">
              {serverMessage(fullSession.message) ?? t("chat.sendFailed")}
              <Box sx={{ mt: 1 }}>
                <Button
                  color="inherit"
                  variant="outlined"
                  size="small"
                  onClick={() => void createSession()}
                  disabled={creating}
                >
                  {t("chat.startNewChat")}
                </Button>
              </Box>
            </Alert>
          </Box>
        )}
        <Composer
          onSend={send}
          onStop={() => void stop()}
          streaming={Boolean(streamingMessage)}
          scopeBar={<ScopeBar state={scope} />}
          onHash={() => scope.openPicker("hash")}
        />
        <Box aria-live="polite" role="status" data-testid="chat-announcer" sx={srOnly}>
          {announcement}
        </Box>
      </Box>
      <Dialog
        open={Boolean(toDelete)}
        onClose={() => !deleting && setToDelete(null)}
        aria-labelledby="delete-session-title"
      >
        <DialogTitle id="delete-session-title">{t("chat.deleteTitle")}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t("chat.deleteText", { title: shownSessionTitle(toDelete, t("chat.untitled")) })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setToDelete(null)} disabled={deleting}>
            {t("chat.cancel")}
          </Button>
          <Button color="error" variant="contained" onClick={() => void confirmDelete()} disabled={deleting}>
            {deleting ? t("chat.deleting") : t("chat.delete")}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

const srOnly = {
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;
