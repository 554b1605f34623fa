import AddRoundedIcon from "@mui/icons-material/AddRounded";
import ChatBubbleOutlineRoundedIcon from "@mui/icons-material/ChatBubbleOutlineRounded";
import ClearRoundedIcon from "@mui/icons-material/ClearRounded";
import DeleteOutlineRoundedIcon from "@mui/icons-material/DeleteOutlineRounded";
import DownloadRoundedIcon from "@mui/icons-material/DownloadRounded";
import EditRoundedIcon from "@mui/icons-material/EditRounded";
import MoreHorizRoundedIcon from "@mui/icons-material/MoreHorizRounded";
import SearchRoundedIcon from "@mui/icons-material/SearchRounded";
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  InputAdornment,
  ListItemIcon,
  Menu,
  MenuItem,
  TextField,
  Typography,
} from "@mui/material";
import { useState } from "react";
import type { ChatSessionFieldsFragment } from "../../../gql/graphql";
import { useI18n } from "../../../i18n/i18n";
import { SESSION_SEARCH_MAX_LENGTH, SESSION_TITLE_MAX_LENGTH } from "../constants";
import { groupSessions } from "../lib/groupSessions";
import { shownSessionTitle } from "../lib/sessionTitle";

export type Session = ChatSessionFieldsFragment;

export interface SessionSidebarProps {
  sessions: Session[];
  loading: boolean;
  selectedId: string | null;
  search: string;
  onSearch: (text: string) => void;
  onSelect: (sessionId: string) => void;
  onNew: () => void;
  onRename: (sessionId: string, title: string) => Promise<boolean>;
  onExport: (session: Session) => void;
  onDelete: (session: Session) => void;
  creating: boolean;
}

function SessionRow({
  session,
  selected,
  props,
}: {
  session: Session;
  selected: boolean;
  props: SessionSidebarProps;
}) {
  const { t } = useI18n();
  const title = shownSessionTitle(session, t("chat.untitled"));
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title);

  const save = async () => {
    const next = draft.trim();
    if (!next || next === title) {
      setEditing(false);
      return;
    }
    if (await props.onRename(session.sessionId, next)) setEditing(false);
  };

  if (editing) {
    return (
      <Box component="li">
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          sx={{ px: 1, py: 0.5 }}
        >
          <TextField
            size="small"
            fullWidth
            autoFocus
            label={t("chat.renameLabel")}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={() => void save()}
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                setDraft(title);
                setEditing(false);
              }
            }}
            slotProps={{ htmlInput: { maxLength: SESSION_TITLE_MAX_LENGTH } }}
          />
        </Box>
      </Box>
    );
  }

  return (
    <Box
      component="li"
      sx={{
        display: "flex",
        alignItems: "center",
        borderRadius: 2,
        bgcolor: selected ? "action.selected" : "transparent",
        "&:hover": { bgcolor: selected ? "action.selected" : "action.hover" },
      }}
    >
      <Box
        component="button"
        type="button"
        onClick={() => props.onSelect(session.sessionId)}
        aria-current={selected ? "page" : undefined}
        data-testid="session-item"
        sx={{
          flex: 1,
          minWidth: 0,
          display: "flex",
          alignItems: "center",
          gap: 1,
          textAlign: "left",
          border: 0,
          bgcolor: "transparent",
          color: selected ? "primary.main" : "text.primary",
          font: "inherit",
          fontWeight: selected ? 600 : 400,
          py: 1,
          pl: 1.25,
          pr: 0.5,
          cursor: "pointer",
          borderRadius: 2,
          "&:focus-visible": { outline: 2, outlineColor: "primary.main", outlineStyle: "solid" },
        }}
      >
        <ChatBubbleOutlineRoundedIcon fontSize="small" sx={{ opacity: 0.7 }} aria-hidden />
        <Typography variant="body2" noWrap component="span" sx={{ fontWeight: "inherit" }} title={title}>
          {title}
        </Typography>
      </Box>
      <IconButton
        size="small"
        aria-label={t("chat.sessionActions", { title })}
        aria-haspopup="menu"
        onClick={(e) => setMenu(e.currentTarget)}
        sx={{ mr: 0.5 }}
      >
        <MoreHorizRoundedIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            setMenu(null);
            setDraft(title);
            setEditing(true);
          }}
        >
          <ListItemIcon>
            <EditRoundedIcon fontSize="small" />
          </ListItemIcon>
          {t("chat.rename")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenu(null);
            props.onExport(session);
          }}
        >
          <ListItemIcon>
            <DownloadRoundedIcon fontSize="small" />
          </ListItemIcon>
          {t("chat.export")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenu(null);
            props.onDelete(session);
          }}
          sx={{ color: "error.main" }}
        >
          <ListItemIcon sx={{ color: "inherit" }}>
            <DeleteOutlineRoundedIcon fontSize="small" />
          </ListItemIcon>
          {t("chat.delete")}
        </MenuItem>
      </Menu>
    </Box>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The session list: 'Ny chat', 'Søg i samtaler', the sessions grouped by day. */
export function SessionSidebar(props: SessionSidebarProps) {
  const { t, locale } = useI18n();
  const groups = groupSessions(props.sessions);
  const groupTitle = (g: (typeof groups)[number]) =>
    g.key === "older" && g.month
      ? capitalise(new Intl.DateTimeFormat(locale, { month: "long", year: "numeric" }).format(g.month))
      : t(`chat.group.${g.key as "today" | "yesterday" | "week"}`);

  return (
    <Box
      component="nav"
      aria-label={t("chat.sessions")}
      sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}
    >
      <Box sx={{ p: 1.5, display: "grid", gap: 1.25 }}>
        <Button
          variant="contained"
          startIcon={props.creating ? <CircularProgress size={16} color="inherit" /> : <AddRoundedIcon />}
          onClick={props.onNew}
          disabled={props.creating}
          fullWidth
        >
          {t("chat.newChat")}
        </Button>
        <TextField
          size="small"
          type="search"
          placeholder={t("chat.search")}
          value={props.search}
          onChange={(e) => props.onSearch(e.target.value)}
          slotProps={{
            htmlInput: { maxLength: SESSION_SEARCH_MAX_LENGTH, "aria-label": t("chat.search") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchRoundedIcon fontSize="small" />
                </InputAdornment>
              ),
              endAdornment: props.search ? (
                <InputAdornment position="end">
                  <IconButton
                    size="small"
                    aria-label={t("chat.clearSearch")}
                    onClick={() => props.onSearch("")}
                  >
                    <ClearRoundedIcon fontSize="small" />
                  </IconButton>
                </InputAdornment>
              ) : null,
            },
          }}
        />
      </Box>
      <Box sx={{ flex: 1, overflowY: "auto", px: 1, pb: 2 }}>
        {props.loading && props.sessions.length === 0 ? (
          <Box sx={{ display: "flex", justifyContent: "center", py: 3 }}>
            <CircularProgress size={22} aria-label={t("app.loading")} />
          </Box>
        ) : props.sessions.length === 0 ? (
          <Box sx={{ textAlign: "center", px: 2, py: 4, color: "text.secondary" }} data-testid="no-sessions">
            <Typography variant="subtitle2" component="p" color="text.primary">
              {t("chat.noSessions")}
            </Typography>
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {props.search.trim() ? t("chat.noSearchHits") : t("chat.noSessionsHint")}
            </Typography>
          </Box>
        ) : (
          groups.map((g) => (
            <Box key={`${g.key}-${g.month?.getTime() ?? ""}`} component="section" sx={{ mb: 1 }}>
              <Typography
                variant="caption"
                component="h2"
                color="text.secondary"
                sx={{
                  display: "block",
                  px: 1.25,
                  pt: 1,
                  pb: 0.5,
                  fontWeight: 600,
                }}
              >
                {groupTitle(g)}
              </Typography>
              <Box
                component="ul"
                // minmax(0, 1fr): a long title is cut with an ellipsis instead of widening the column
                sx={{
                  listStyle: "none",
                  m: 0,
                  p: 0,
                  display: "grid",
                  gridTemplateColumns: "minmax(0, 1fr)",
                  gap: 0.25,
                }}
              >
                {g.sessions.map((s) => (
                  <SessionRow
                    key={s.sessionId}
                    session={s}
                    selected={s.sessionId === props.selectedId}
                    props={props}
                  />
                ))}
              </Box>
            </Box>
          ))
        )}
      </Box>
    </Box>
  );
}
