import { Box, Chip } from "@mui/material";
import { TextChip } from "../../../components/TextChip";
import { useT } from "../../../i18n/i18n";
import { cardTags } from "../lib/excerpt";

/**
 * Up to `max` tags and a '+n' chip for the rest (spec §9); all tags when no max is given. The '+n' chip shares the
 * last tag's item, so when the row wraps they move to the next line together ('+2' alone on a line read as a stray).
 */
export function TagList({ tags, max }: { tags: readonly string[]; max?: number }) {
  const t = useT();
  const { shown, more } = cardTags(tags, max ?? tags.length);
  if (shown.length === 0) return null;
  const moreChip = more > 0 && (
    <Chip
      label={`+${more}`}
      size="small"
      aria-label={t("knowledge.moreTags", { n: more })}
      sx={{ bgcolor: "action.selected" }}
    />
  );
  return (
    <Box
      component="ul"
      aria-label={t("knowledge.tags")}
      sx={{ display: "flex", flexWrap: "wrap", gap: 0.75, listStyle: "none", p: 0, m: 0 }}
    >
      {shown.map((tag, i) => (
        <Box component="li" key={tag} sx={{ display: "flex", gap: 0.75, minWidth: 0, maxWidth: "100%" }}>
          <TextChip label={tag} size="small" variant="outlined" />
          {i === shown.length - 1 && moreChip}
        </Box>
      ))}
    </Box>
  );
}
