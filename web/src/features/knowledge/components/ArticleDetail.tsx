import { useQuery } from "@apollo/client/react";
import ArrowBackRoundedIcon from "@mui/icons-material/ArrowBackRounded";
import EventRoundedIcon from "@mui/icons-material/EventRounded";
import HistoryEduRoundedIcon from "@mui/icons-material/HistoryEduRounded";
import SearchOffRoundedIcon from "@mui/icons-material/SearchOffRounded";
import { Alert, Box, Button, Card, CardContent, Divider, Skeleton, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { TextChip } from "../../../components/TextChip";
import { useI18n } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";
import { toAppError } from "../../../lib/errors";
import { KnowledgeArticleQuery } from "../graphql/knowledgeArticle.query";
import { viewHref } from "../lib/knowledgeView";
import { ArticleContent } from "./ArticleContent";
import { ArticleSource } from "./ArticleSource";
import { AskArticleButton } from "./AskArticleButton";
import { BookmarkButton } from "./BookmarkButton";
import { EmptyState } from "./EmptyState";
import { TagList } from "./TagList";
import { ViewHeading } from "./ViewHeading";

function anchorOf(hash: string): string {
  if (!hash.startsWith("#")) return "";
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/** Back through the history when the user came from inside the app, else to the article's category. */
function useBack(category: string | undefined) {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key !== "default") navigate(-1);
    else
      navigate(
        category
          ? viewHref({ kind: "category", category, query: "" })
          : viewHref({ kind: "overview", query: "" }),
      );
  };
}

/**
 * One article (`/knowledge?article=<id>`): category and subcategory badges, dates in the user's locale, tags, the
 * bookmark toggle and the content. With `#<anchor>` the page scrolls to that heading, focuses it and marks it.
 */
export function ArticleDetail({ articleId }: { articleId: string }) {
  const { t, locale } = useI18n();
  const { hash } = useLocation();
  const { data, loading, error } = useQuery(KnowledgeArticleQuery, { variables: { id: articleId } });
  const article = data?.knowledgeArticle;
  const back = useBack(article?.category);
  const [cited, setCited] = useState("");

  useEffect(() => {
    const anchor = anchorOf(hash);
    if (!article || !anchor) return;
    const el = document.getElementById(anchor);
    if (!el) return;
    el.scrollIntoView({ block: "start" });
    el.focus({ preventScroll: true });
    setCited(anchor);
  }, [article, hash]);

  const backButton = (
    <Button startIcon={<ArrowBackRoundedIcon />} onClick={back} sx={{ mb: 2, ml: -1 }}>
      {t("common.back")}
    </Button>
  );

  if (error) {
    const notFound = toAppError(error).code === "NOT_FOUND";
    return (
      <>
        {backButton}
        {notFound ? (
          <EmptyState
            testId="knowledge-article-not-found"
            icon={<SearchOffRoundedIcon />}
            title={t("knowledge.articleNotFound")}
            text={t("knowledge.articleNotFoundText")}
          />
        ) : (
          <Alert severity="error">{t("knowledge.loadFailed")}</Alert>
        )}
      </>
    );
  }
  if (loading || !article) {
    return (
      <>
        {backButton}
        <Skeleton variant="text" sx={{ fontSize: "2rem", maxWidth: 480 }} />
        <Skeleton variant="rounded" height={320} sx={{ mt: 2 }} />
      </>
    );
  }

  return (
    <>
      {backButton}
      <Card component="article" aria-labelledby="article-title">
        <CardContent sx={{ p: { xs: 2.5, md: 5 } }}>
          <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mb: 1.5 }}>
            <TextChip
              label={article.category}
              color="primary"
              size="small"
              aria-label={t("knowledge.category", { name: article.category })}
            />
            {article.subcategory && (
              <TextChip
                label={article.subcategory}
                size="small"
                variant="outlined"
                aria-label={t("knowledge.subcategory", { name: article.subcategory })}
              />
            )}
          </Box>
          <Box
            sx={{
              display: "flex",
              gap: 2,
              justifyContent: "space-between",
              alignItems: "flex-start",
              flexWrap: "wrap",
            }}
          >
            <Box sx={{ minWidth: 0, flex: "1 1 320px" }}>
              <ViewHeading id="article-title" focusOnMount={!hash}>
                {article.title}
              </ViewHeading>
            </Box>
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <AskArticleButton articleId={article.id} />
              <BookmarkButton articleId={article.id} />
            </Box>
          </Box>
          <Box
            sx={{
              display: "flex",
              gap: { xs: 1, sm: 3 },
              flexWrap: "wrap",
              mt: 1.5,
              color: "text.secondary",
            }}
            data-testid="article-dates"
          >
            <Typography variant="body2" sx={{ display: "flex", alignItems: "center", gap: 0.75 }}>
              <HistoryEduRoundedIcon fontSize="small" aria-hidden="true" />
              {t("knowledge.lastUpdated", { date: formatDate(article.lastUpdated, locale) })}
            </Typography>
            <Typography variant="body2" sx={{ display: "flex", alignItems: "center", gap: 0.75 }}>
              <EventRoundedIcon fontSize="small" aria-hidden="true" />
              {t("knowledge.created", { date: formatDate(article.createdAt, locale) })}
            </Typography>
            <ArticleSource source={article.source} />
          </Box>
          {article.tags.length > 0 && (
            <Box sx={{ mt: 2 }}>
              <TagList tags={article.tags} />
            </Box>
          )}
          <Divider sx={{ my: 3 }} />
          <ArticleContent content={article.content} title={article.title} highlightedAnchor={cited} />
        </CardContent>
      </Card>
    </>
  );
}
