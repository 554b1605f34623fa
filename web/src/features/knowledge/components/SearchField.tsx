import ClearRoundedIcon from "@mui/icons-material/ClearRounded";
import SearchRoundedIcon from "@mui/icons-material/SearchRounded";
import { Box, Button, IconButton, InputAdornment, TextField } from "@mui/material";
import { type FormEvent, useEffect, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { MAX_QUERY_LENGTH } from "../lib/knowledgeView";

/**
 * A search form: Enter or the button searches (each search is a history entry and a recent search, so typing alone
 * does not search). Follows the address when back/forward changes the query.
 */
export function SearchField({
  query,
  onSearch,
  label,
  placeholder,
  id,
  autoFocus,
}: {
  query: string;
  onSearch: (query: string) => void;
  label: string;
  placeholder?: string;
  id: string;
  autoFocus?: boolean;
}) {
  const t = useT();
  const [value, setValue] = useState(query);
  useEffect(() => setValue(query), [query]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(value.trim());
  };

  return (
    <Box component="form" role="search" onSubmit={submit} sx={{ display: "flex", gap: 1, width: "100%" }}>
      <TextField
        id={id}
        type="search"
        label={label}
        placeholder={placeholder}
        value={value}
        autoFocus={autoFocus}
        onChange={(e) => setValue(e.target.value)}
        fullWidth
        autoComplete="off"
        sx={{
          "& .MuiInputBase-root": { bgcolor: "background.paper" },
          // the field has its own clear button; hide the browser's
          "& input::-webkit-search-cancel-button": { display: "none" },
        }}
        slotProps={{
          // a label naming a long category is cut with "…" above the field: its whole text as tooltip
          inputLabel: { title: label },
          htmlInput: { maxLength: MAX_QUERY_LENGTH, enterKeyHint: "search" },
          input: {
            // at phone width the room goes to the placeholder: the label and the button already say "search"
            startAdornment: (
              <InputAdornment position="start" sx={{ display: { xs: "none", sm: "flex" } }}>
                <SearchRoundedIcon aria-hidden="true" />
              </InputAdornment>
            ),
            endAdornment: value ? (
              <InputAdornment position="end">
                <IconButton
                  aria-label={t("knowledge.clearSearch")}
                  edge="end"
                  size="small"
                  onClick={() => {
                    setValue("");
                    if (query) onSearch("");
                  }}
                >
                  <ClearRoundedIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : null,
          },
        }}
      />
      <Button type="submit" variant="contained" sx={{ px: { xs: 2, sm: 3 }, flexShrink: 0 }}>
        {t("knowledge.searchSubmit")}
      </Button>
    </Box>
  );
}
