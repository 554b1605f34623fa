import { Box } from "@mui/material";
import { splitHighlights, type TextRange } from "../lib/highlight";

/** Server text with its matched words marked; built from ranges as React text, so the text never becomes markup. */
export function HighlightedText({ text, ranges }: { text: string; ranges: readonly TextRange[] }) {
  return (
    <>
      {splitHighlights(text, ranges).map((piece, i) =>
        piece.highlighted ? (
          <Box
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positional and never reordered
            key={i}
            component="mark"
            sx={(theme) => ({
              bgcolor: theme.palette.mode === "dark" ? "rgba(255, 213, 79, 0.28)" : "#fff3b0",
              color: "inherit",
              borderRadius: 0.5,
              px: 0.25,
              fontWeight: 600,
            })}
          >
            {piece.text}
          </Box>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positional and never reordered
          <span key={i}>{piece.text}</span>
        ),
      )}
    </>
  );
}
