import { Box, Card, CardActionArea, CardContent, Skeleton, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router-dom";
import { TextChip } from "../../../components/TextChip";
import { useI18n } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";
import { articleExcerpt, cardTitle } from "../lib/excerpt";
import { viewHref } from "../lib/knowledgeView";
import { TagList } from "./TagList";

export interface ArticleCardData {
  id: string;
  title: string;
  content: string;
  category: string;
  subcategory?: string | null;
  tags: string[];
  lastUpdated: string;
}

/**
 * An article as a card linking to its detail view: title cut at 60, the spec's excerpt (or the search snippet given
 * as `excerpt`), category, date and up to `maxTags` tags.
 */
export function ArticleCard({
  article,
  maxTags,
  title,
  excerpt,
  date,
  headingLevel = "h3",
}: {
  article: ArticleCardData;
  maxTags: number;
  /** replaces the cut title (search results mark the matched words) */
  title?: ReactNode;
  excerpt?: ReactNode;
  /** the card's one date line; the article's last update by default */
  date?: ReactNode;
  headingLevel?: "h2" | "h3";
}) {
  const { locale } = useI18n();
  return (
    <Card component="article" sx={{ height: "100%", display: "flex", flexDirection: "column" }}>
      <CardActionArea
        component={RouterLink}
        to={viewHref({ kind: "article", articleId: article.id })}
        sx={{ flexGrow: 1, alignItems: "stretch", display: "flex", flexDirection: "column" }}
      >
        <CardContent sx={{ flexGrow: 1, width: "100%", display: "flex", flexDirection: "column", gap: 1 }}>
          <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap" }}>
            <TextChip label={article.category} size="small" color="primary" variant="outlined" />
            {article.subcategory && <TextChip label={article.subcategory} size="small" variant="outlined" />}
          </Box>
          <Typography
            component={headingLevel}
            title={article.title}
            sx={{ fontSize: "1.05rem", fontWeight: 650, lineHeight: 1.35, overflowWrap: "anywhere" }}
          >
            {title ?? cardTitle(article.title)}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere", flexGrow: 1 }}>
            {excerpt ?? articleExcerpt(article.content)}
          </Typography>
        </CardContent>
      </CardActionArea>
      {/* the date last, under the tags: a card whose tags wrap to two lines keeps it level with its neighbours' */}
      <Box sx={{ px: 2, pb: 2, display: "flex", flexDirection: "column", gap: 1 }}>
        <TagList tags={article.tags} max={maxTags} />
        <Typography variant="caption" color="text.secondary" data-testid="article-card-date">
          {date ?? formatDate(article.lastUpdated, locale)}
        </Typography>
      </Box>
    </Card>
  );
}

/** Cards in a responsive grid: one column on phones, two from sm, `lgColumns` (three; four for categories) from lg. */
export function CardGrid({
  children,
  label,
  lgColumns = 3,
}: {
  children: ReactNode;
  label?: string;
  lgColumns?: number;
}) {
  return (
    <Box
      aria-label={label}
      sx={{
        display: "grid",
        gap: 2,
        gridTemplateColumns: {
          xs: "1fr",
          sm: "repeat(2, minmax(0, 1fr))",
          lg: `repeat(${lgColumns}, minmax(0, 1fr))`,
        },
      }}
    >
      {children}
    </Box>
  );
}

/** The card grid while its articles load: `count` placeholder cards. */
export function CardGridSkeleton({ count = 3, height = 180 }: { count?: number; height?: number }) {
  return (
    <CardGrid>
      {Array.from({ length: count }, (_, n) => n).map((n) => (
        <Skeleton key={n} variant="rounded" height={height} />
      ))}
    </CardGrid>
  );
}
