import { Box, LinearProgress, Typography } from "@mui/material";
import { clampScore, scoreColor } from "../lib/notion";

/** Spec §2: the suitability percentage with a bar, green at 80 or more, yellow at 60 or more, otherwise red. */
export function ScoreBar({ score, label, caption }: { score: number; label: string; caption: string }) {
  const value = clampScore(score);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, mb: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          {caption}
        </Typography>
        <Typography variant="caption" sx={{ fontWeight: 700 }} data-testid="notion-score">
          {value} %
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={value}
        color={scoreColor(value)}
        aria-label={label}
        data-level={scoreColor(value)}
        sx={{ height: 6, borderRadius: 3 }}
      />
    </Box>
  );
}
