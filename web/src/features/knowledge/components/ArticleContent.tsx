import { Box, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { headingAnchor } from "../../../lib/anchors";
import { type ArticleLine, articleLines } from "../lib/articleLines";

const HEADING = {
  h1: { variant: "h2", size: "1.5rem" },
  h2: { variant: "h3", size: "1.25rem" },
  h3: { variant: "h4", size: "1.08rem" },
} as const;

/**
 * Article text line by line (spec §2). The page's own h1 is the article title, so '# ' lines are h2, '## ' h3 and
 * '### ' h4; each heading carries `id={headingAnchor(text)}` so a citation link lands on it. Every text is a React
 * text node: nothing in an article becomes markup, a link or an image.
 */
export function ArticleContent({
  content,
  title,
  highlightedAnchor,
}: {
  content: string;
  /** the page's h1: an opening heading with the same text is not shown a second time */
  title?: string;
  highlightedAnchor?: string;
}) {
  const lines = articleLines(content);
  const out: ReactNode[] = [];
  let i = 0;
  const first = lines.find((l) => l.kind !== "blank");
  if (title && first?.kind === "h1" && first.text.trim() === title.trim()) {
    // kept as an empty target, so a citation of the opening section still lands at the top of the text
    const at = lines.indexOf(first);
    out.push(<Box key="title-anchor" id={headingAnchor(first.text) || undefined} tabIndex={-1} />);
    i = at + 1;
    while (lines[i]?.kind === "blank") i++;
  }
  while (i < lines.length) {
    const line = lines[i] as ArticleLine;
    if (line.kind === "bullet" || line.kind === "numbered") {
      // consecutive items of one kind form one list
      const items: ArticleLine[] = [];
      while (lines[i]?.kind === line.kind) items.push(lines[i++] as ArticleLine);
      out.push(
        <Box
          key={`list-${i}`}
          component={line.kind === "bullet" ? "ul" : "ol"}
          sx={{ my: 0.5, pl: 3.5, "& li": { my: 0.5 } }}
        >
          {items.map((item, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
            <li key={j} value={item.number ? Number(item.number) : undefined}>
              {item.text}
            </li>
          ))}
        </Box>,
      );
      continue;
    }
    out.push(<Line key={`line-${i}`} line={line} highlightedAnchor={highlightedAnchor} />);
    i++;
  }
  return (
    <Box
      data-testid="article-content"
      sx={{ overflowWrap: "anywhere", lineHeight: 1.7, fontSize: "1rem", maxWidth: "80ch" }}
    >
      {out}
    </Box>
  );
}

function Line({ line, highlightedAnchor }: { line: ArticleLine; highlightedAnchor?: string }) {
  switch (line.kind) {
    case "h1":
    case "h2":
    case "h3": {
      const anchor = headingAnchor(line.text);
      const { variant, size } = HEADING[line.kind];
      const cited = Boolean(anchor) && anchor === highlightedAnchor;
      return (
        <Typography
          id={anchor || undefined}
          variant={variant}
          tabIndex={-1}
          data-cited={cited || undefined}
          sx={(theme) => ({
            fontSize: size,
            fontWeight: 700,
            mt: 3,
            mb: 1,
            lineHeight: 1.3,
            scrollMarginTop: 96,
            borderRadius: 1,
            transition: "background-color 1.2s ease",
            ...(cited
              ? {
                  bgcolor: theme.palette.mode === "dark" ? "rgba(255, 213, 79, 0.22)" : "#fff3b0",
                  boxShadow: `-8px 0 0 0 ${theme.palette.mode === "dark" ? "rgba(255, 213, 79, 0.22)" : "#fff3b0"}`,
                }
              : {}),
            "&:first-of-type": { mt: 0 },
            "&:focus": { outline: "none" },
            "&:focus-visible": { outline: `3px solid ${theme.palette.primary.main}` },
          })}
        >
          {line.text}
        </Typography>
      );
    }
    case "blank":
      return <Box aria-hidden="true" sx={{ height: "0.75em" }} />;
    case "bold":
      return (
        <Typography component="p" sx={{ fontWeight: 700, my: 0.25 }}>
          {line.text}
        </Typography>
      );
    default:
      return (
        <Typography component="p" sx={{ my: 0.25 }}>
          {line.text}
        </Typography>
      );
  }
}
