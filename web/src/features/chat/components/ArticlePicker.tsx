import { useQuery } from "@apollo/client/react";
import CheckRoundedIcon from "@mui/icons-material/CheckRounded";
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from "@mui/material";
import { useEffect, useId, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { ScopeArticleSearchQuery } from "../graphql/scopeArticleSearch.query";
import type { ChatScopeState } from "../hooks/useChatScope";
import { MAX_SCOPE_ARTICLES, type ScopeArticle, withArticle, withoutArticle } from "../lib/scope";

/** How long the picker waits after a keystroke before it searches. */
const PICKER_DEBOUNCE_MS = 150;
/** Articles the picker lists for one search. */
const PICKER_HITS = 8;

/**
 * The article picker (search as you type): opened from the scope menu it adds and removes articles until "Færdig";
 * opened by typing `#` in the question it adds the chosen article and closes (focus returns to the question).
 */
export function ArticlePicker({ state }: { state: ChatScopeState }) {
  const t = useT();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"), { noSsr: true });
  const open = state.picker !== null;
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const titleId = useId();
  const hintId = useId();

  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), PICKER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => {
    if (open) setText("");
  }, [open]);

  const { data, loading } = useQuery(ScopeArticleSearchQuery, {
    variables: { query, limit: PICKER_HITS },
    skip: !open || !query,
    fetchPolicy: "cache-first",
  });
  const hits = query ? (data?.searchKnowledge.hits.map((h) => h.article) ?? []) : [];
  const chosen = new Set(state.scope.kind === "ARTICLES" ? state.scope.articles.map((a) => a.id) : []);

  const pick = (article: ScopeArticle) => {
    const scope = state.scope;
    void state.change(
      chosen.has(article.id) ? withoutArticle(scope, article.id) : withArticle(scope, article),
    );
    if (state.picker === "hash") state.closePicker();
  };

  return (
    <Dialog
      open={open}
      onClose={state.closePicker}
      fullWidth
      maxWidth="sm"
      fullScreen={narrow}
      aria-labelledby={titleId}
      data-testid="chat-article-picker"
    >
      <DialogTitle id={titleId}>{t("chat.scope.pickerTitle")}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          size="small"
          label={t("chat.scope.pickerSearch")}
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, 200))}
          onKeyDown={(e) => {
            if (e.key === "Enter" && hits[0] && query === text.trim()) {
              e.preventDefault();
              pick(hits[0]);
            }
          }}
          slotProps={{ htmlInput: { "aria-describedby": hintId, "data-testid": "chat-article-search" } }}
          sx={{ mt: 1 }}
        />
        <Typography id={hintId} variant="caption" color="text.secondary" component="p" sx={{ mt: 0.75 }}>
          {t("chat.scope.pickerHint", { max: MAX_SCOPE_ARTICLES })}
        </Typography>
        <Box aria-live="polite" aria-busy={loading} sx={{ mt: 1, minHeight: 120 }}>
          {query && !loading && hits.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 2 }}>
              {t("chat.scope.pickerEmpty")}
            </Typography>
          ) : (
            <List dense aria-label={t("chat.scope.pickerTitle")}>
              {hits.map((a) => (
                <ListItem key={a.id} disablePadding>
                  <ListItemButton
                    selected={chosen.has(a.id)}
                    aria-pressed={chosen.has(a.id)}
                    onClick={() => pick(a)}
                    data-testid="chat-article-option"
                  >
                    <ListItemIcon sx={{ minWidth: 32 }}>
                      {chosen.has(a.id) && (
                        <CheckRoundedIcon fontSize="small" aria-label={t("chat.scope.pickerChosen")} />
                      )}
                    </ListItemIcon>
                    <ListItemText primary={a.title} secondary={a.category} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={state.closePicker} variant="contained">
          {t("chat.scope.pickerDone")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
