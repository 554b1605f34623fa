import { useQuery } from "@apollo/client/react";
import BookmarksRoundedIcon from "@mui/icons-material/BookmarksRounded";
import CheckRoundedIcon from "@mui/icons-material/CheckRounded";
import FilterListRoundedIcon from "@mui/icons-material/FilterListRounded";
import LibraryBooksRoundedIcon from "@mui/icons-material/LibraryBooksRounded";
import PlaylistAddRoundedIcon from "@mui/icons-material/PlaylistAddRounded";
import {
  Box,
  Button,
  Chip,
  Divider,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Menu,
  MenuItem,
} from "@mui/material";
import { useId, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { ScopeCategoriesQuery } from "../graphql/scopeCategories.query";
import type { ChatScopeState } from "../hooks/useChatScope";
import {
  ALL_SCOPE,
  BOOKMARKS_SCOPE,
  categoryScope,
  type Scope,
  scopeLabel,
  withoutArticle,
} from "../lib/scope";
import { ArticlePicker } from "./ArticlePicker";

/**
 * Beside the question field: the scope button (a menu: all articles, a category, my bookmarks, choose
 * articles…), the current scope as removable chips, and the article picker (also opened by typing `#`).
 */
export function ScopeBar({ state }: { state: ChatScopeState }) {
  const t = useT();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const categories = useQuery(ScopeCategoriesQuery, { skip: !anchor, fetchPolicy: "cache-first" });
  const { scope } = state;
  const label = scopeLabel(scope, t);

  const choose = (next: Scope) => {
    setAnchor(null);
    void state.change(next);
  };
  const chip = (key: string, text: string, next: Scope) => (
    <Chip
      key={key}
      label={text}
      size="small"
      color="primary"
      variant="outlined"
      onDelete={() => void state.change(next)}
      aria-label={t("chat.scope.remove", { scope: text })}
      data-testid="chat-scope-chip"
      sx={{ maxWidth: { xs: 220, sm: 320 } }}
    />
  );

  return (
    <Box
      role="group"
      aria-label={t("chat.scope.current")}
      sx={{
        display: "flex",
        alignItems: "center",
        flexWrap: "wrap",
        gap: 0.75,
        maxWidth: 820,
        mx: "auto",
        mb: 0.75,
      }}
    >
      <Button
        id={buttonId}
        size="small"
        variant={scope.kind === "ALL" ? "text" : "outlined"}
        startIcon={<FilterListRoundedIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? "true" : undefined}
        aria-controls={anchor ? menuId : undefined}
        aria-label={t("chat.scope.buttonLabel", { scope: label })}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="chat-scope-button"
        sx={{ borderRadius: 4, textTransform: "none" }}
      >
        {scope.kind === "ALL" ? t("chat.scope.all") : t("chat.scope.button")}
      </Button>
      {scope.kind === "CATEGORY" && chip("category", label, ALL_SCOPE)}
      {scope.kind === "BOOKMARKS" && chip("bookmarks", label, ALL_SCOPE)}
      {scope.kind === "ARTICLES" &&
        scope.articles.map((a) => chip(a.id, a.title, withoutArticle(scope, a.id)))}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { "aria-labelledby": buttonId, dense: true }, paper: { sx: { maxHeight: 420 } } }}
      >
        <MenuItem selected={scope.kind === "ALL"} onClick={() => choose(ALL_SCOPE)}>
          <ListItemIcon>
            <LibraryBooksRoundedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("chat.scope.all")}</ListItemText>
          {scope.kind === "ALL" && <CheckRoundedIcon fontSize="small" aria-hidden />}
        </MenuItem>
        <MenuItem selected={scope.kind === "BOOKMARKS"} onClick={() => choose(BOOKMARKS_SCOPE)}>
          <ListItemIcon>
            <BookmarksRoundedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("chat.scope.bookmarks")}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            state.openPicker("menu");
          }}
        >
          <ListItemIcon>
            <PlaylistAddRoundedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("chat.scope.pickArticles")}</ListItemText>
        </MenuItem>
        <Divider />
        <ListSubheader role="none" aria-hidden="true" sx={{ lineHeight: 2.5 }}>
          {t("chat.scope.categories")}
        </ListSubheader>
        {(categories.data?.knowledgeCategories ?? []).map((c) => {
          const active = scope.kind === "CATEGORY" && scope.category === c.name;
          return (
            <MenuItem key={c.name} selected={active} onClick={() => choose(categoryScope(c.name))}>
              <ListItemText inset>{c.name}</ListItemText>
              {active && <CheckRoundedIcon fontSize="small" aria-hidden />}
            </MenuItem>
          );
        })}
      </Menu>
      <ArticlePicker state={state} />
    </Box>
  );
}
