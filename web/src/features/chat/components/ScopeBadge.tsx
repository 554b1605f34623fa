import FilterListRoundedIcon from "@mui/icons-material/FilterListRounded";
import { Chip } from "@mui/material";
import { useT } from "../../../i18n/i18n";
import { type Scope, scopeLabel } from "../lib/scope";

/** On an answer: the scope it was made in ("Søgt i: Kategori: Økonomi"). */
export function ScopeBadge({ scope }: { scope: Scope }) {
  const t = useT();
  return (
    <Chip
      icon={<FilterListRoundedIcon />}
      label={t("chat.scope.searchedIn", { scope: scopeLabel(scope, t) })}
      size="small"
      variant="outlined"
      data-testid="answer-scope"
      sx={{ mb: 1, mr: 0.75, height: "auto", py: 0.25, "& .MuiChip-label": { whiteSpace: "normal" } }}
    />
  );
}
