import { Box, Checkbox, Chip, Typography } from "@mui/material";
import { useI18n } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";
import type { NotionDatabase } from "../hooks/useNotionAdminConfig";
import { propertySummary } from "../lib/notion";
import { DatabaseIcon } from "./DatabaseIcon";
import { ScoreBar } from "./ScoreBar";

/**
 * One database of the list (spec §2): checkbox, icon, title or 'Untitled', 'recommended' and 'active' badges,
 * page count, last edited, up to 3 property names then '…', and the suitability bar.
 */
export function DatabaseRow({
  database,
  selected,
  disabled,
  onToggle,
}: {
  database: NotionDatabase;
  selected: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  const { t, locale } = useI18n();
  const title = database.title.trim() || t("notion.database.untitled");
  const inputId = `notion-db-${database.id}`;
  const metaId = `${inputId}-meta`;
  const names = database.properties.map((p) => p.name);
  const meta = [
    database.pageCount === 1
      ? t("notion.database.onePage")
      : t("notion.database.pages", { n: database.pageCount }),
    database.lastEditedTime
      ? t("notion.database.edited", {
          date: formatDate(database.lastEditedTime, locale, {
            day: "numeric",
            month: "short",
            year: "numeric",
          }),
        })
      : null,
  ].filter(Boolean);

  return (
    <Box
      component="li"
      data-testid="notion-database"
      data-selected={selected}
      sx={{
        display: "flex",
        flexWrap: { xs: "wrap", sm: "nowrap" },
        alignItems: "center",
        gap: { xs: 1, sm: 1.5 },
        px: { xs: 1, sm: 1.5 },
        py: 1.25,
        borderBottom: 1,
        borderColor: "divider",
        bgcolor: selected ? "action.selected" : undefined,
        "&:last-of-type": { borderBottom: 0 },
      }}
    >
      <Checkbox
        id={inputId}
        checked={selected}
        disabled={disabled}
        onChange={onToggle}
        slotProps={{ input: { "aria-describedby": metaId } }}
        sx={{ p: 0.75 }}
      />
      <DatabaseIcon icon={database.icon} />
      <Box sx={{ flex: "1 1 0", minWidth: 0 }}>
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 0.75 }}>
          <Typography
            component="label"
            htmlFor={inputId}
            sx={{ fontWeight: 600, cursor: "pointer", overflowWrap: "anywhere" }}
          >
            {title}
          </Typography>
          {database.recommended && (
            <Chip label={t("notion.database.recommended")} size="small" color="success" />
          )}
          {selected && <Chip label={t("notion.database.active")} size="small" color="primary" />}
        </Box>
        <Typography id={metaId} variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
          {meta.join(" · ")}
        </Typography>
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: "block", overflowWrap: "anywhere" }}
          data-testid="notion-properties"
        >
          {names.length ? propertySummary(names) : t("notion.database.noProperties")}
        </Typography>
      </Box>
      <Box sx={{ width: { xs: "100%", sm: 140 }, flexShrink: 0, pl: { xs: 6, sm: 0 } }}>
        <ScoreBar
          score={database.score}
          caption={t("notion.database.score")}
          label={t("notion.database.scoreOf", { title, score: database.score })}
        />
      </Box>
    </Box>
  );
}
