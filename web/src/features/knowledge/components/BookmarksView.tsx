import { useMutation, useQuery } from "@apollo/client/react";
import BookmarkBorderRoundedIcon from "@mui/icons-material/BookmarkBorderRounded";
import { Alert, Box, Button, Card, CardContent, Typography } from "@mui/material";
import { useI18n } from "../../../i18n/i18n";
import { MyBookmarksQuery } from "../graphql/myBookmarks.query";
import { RemoveBookmarkMutation } from "../graphql/removeBookmark.mutation";
import { bookmarkDate } from "../lib/bookmarks";
import { CATEGORY_CARD_TAGS } from "../lib/excerpt";
import { viewHref } from "../lib/knowledgeView";
import { ArticleCard, CardGrid, CardGridSkeleton } from "./ArticleCard";
import { BackButton } from "./BackButton";
import { EmptyState } from "./EmptyState";
import { ViewHeading } from "./ViewHeading";

/** 'Mine bogmærker': the user's bookmarked articles, newest first; a bookmark whose article is gone can be removed. */
export function BookmarksView() {
  const { t, locale } = useI18n();
  const { data, loading, error, refetch } = useQuery(MyBookmarksQuery, { fetchPolicy: "cache-and-network" });
  const [remove] = useMutation(RemoveBookmarkMutation);
  const bookmarks = data?.myBookmarks ?? [];

  return (
    <>
      <BackButton to={viewHref({ kind: "overview", query: "" })} label={t("knowledge.backToOverview")} />
      <Box sx={{ mb: 3 }}>
        <ViewHeading>{t("knowledge.bookmarksTitle")}</ViewHeading>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t("knowledge.bookmarksSubtitle")}
        </Typography>
      </Box>
      {error ? (
        <Alert severity="error">{t("knowledge.loadFailed")}</Alert>
      ) : loading && !data ? (
        <CardGridSkeleton />
      ) : bookmarks.length === 0 ? (
        <EmptyState
          testId="knowledge-no-bookmarks"
          icon={<BookmarkBorderRoundedIcon />}
          title={t("knowledge.bookmarksEmptyTitle")}
          text={t("knowledge.bookmarksEmptyText")}
        />
      ) : (
        <CardGrid>
          {bookmarks.map((b) =>
            b.article ? (
              <ArticleCard
                key={b.id}
                article={b.article}
                maxTags={CATEGORY_CARD_TAGS}
                headingLevel="h2"
                date={bookmarkDate(b.bookmarkedAt, b.article.lastUpdated, t, locale)}
              />
            ) : (
              <Card key={b.id}>
                <CardContent>
                  <Typography component="h2" sx={{ fontWeight: 650 }}>
                    {b.articleTitle}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
                    {t("knowledge.bookmarkGone")}
                  </Typography>
                  <Button
                    size="small"
                    onClick={async () => {
                      await remove({ variables: { articleId: b.articleId } }).catch(() => undefined);
                      await refetch();
                    }}
                  >
                    {t("knowledge.removeBookmark")}
                  </Button>
                </CardContent>
              </Card>
            ),
          )}
        </CardGrid>
      )}
    </>
  );
}
