import { useQuery } from "@apollo/client/react";
import BookmarksRoundedIcon from "@mui/icons-material/BookmarksRounded";
import CloudOffRoundedIcon from "@mui/icons-material/CloudOffRounded";
import { Alert, Box, Button, Skeleton, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useT } from "../../../i18n/i18n";
import { KnowledgeArticlesQuery } from "../graphql/knowledgeArticles.query";
import { KnowledgeCategoriesQuery } from "../graphql/knowledgeCategories.query";
import { SearchKnowledgeQuery } from "../graphql/searchKnowledge.query";
import { viewHref } from "../lib/knowledgeView";
import { AllDocuments } from "./AllDocuments";
import { CardGrid, CardGridSkeleton } from "./ArticleCard";
import { CATEGORY_GRID_COLUMNS, CategoryCard, CategoryGridSkeleton } from "./CategoryCard";
import { EmptyState } from "./EmptyState";
import { RecentSearches } from "./RecentSearches";
import { SearchField } from "./SearchField";
import { SearchResults } from "./SearchResults";
import { ViewHeading } from "./ViewHeading";

const SEARCH_LIMIT = 50;
/** about an article card's height with its excerpt and tags */
const ARTICLE_CARD_SKELETON_HEIGHT = 290;

/** /knowledge: the hero with search and recent searches, then results, or the categories and every document. */
export function OverviewView({ query, onSearch }: { query: string; onSearch: (query: string) => void }) {
  const t = useT();
  const categories = useQuery(KnowledgeCategoriesQuery);
  const articles = useQuery(KnowledgeArticlesQuery, { variables: { category: null } });
  const search = useQuery(SearchKnowledgeQuery, {
    variables: { query, limit: SEARCH_LIMIT },
    skip: !query,
    fetchPolicy: "cache-and-network",
  });
  const all = articles.data?.knowledgeArticles ?? [];
  const cats = (categories.data?.knowledgeCategories ?? []).filter((c) => c.count > 0);
  const failed = Boolean(categories.error || articles.error);
  const loading = (categories.loading && !categories.data) || (articles.loading && !articles.data);

  return (
    <>
      <Box
        component="section"
        aria-labelledby="knowledge-title"
        sx={(theme) => ({
          borderRadius: 4,
          px: { xs: 2.5, md: 5 },
          py: { xs: 3, md: 5 },
          mb: 4,
          border: 1,
          borderColor: "divider",
          background:
            theme.palette.mode === "dark"
              ? "linear-gradient(135deg, #17263a 0%, #161d27 60%, #13302d 100%)"
              : "linear-gradient(135deg, #e3edf8 0%, #ffffff 55%, #e2f3f0 100%)",
        })}
      >
        {/* Heading and text in one box, so at 390 px the bookmarks button wraps below the text (it used to sit
            between the heading and its text). */}
        <Box
          sx={{
            display: "flex",
            justifyContent: "space-between",
            alignItems: "flex-start",
            gap: 2,
            flexWrap: "wrap",
            mb: 3,
          }}
        >
          <Box sx={{ flex: "1 1 320px", minWidth: 0 }}>
            <ViewHeading id="knowledge-title">{t("knowledge.title")}</ViewHeading>
            <Typography color="text.secondary" sx={{ mt: 1, maxWidth: 640 }}>
              {t("knowledge.heroText")}
            </Typography>
          </Box>
          <Button
            component={RouterLink}
            to={viewHref({ kind: "bookmarks" })}
            variant="outlined"
            startIcon={<BookmarksRoundedIcon />}
            sx={{ bgcolor: "background.paper" }}
          >
            {t("knowledge.bookmarksTitle")}
          </Button>
        </Box>
        <SearchField
          id="knowledge-search"
          query={query}
          onSearch={onSearch}
          label={t("knowledge.searchLabel")}
          placeholder={t("knowledge.searchPlaceholder")}
        />
        <RecentSearches onPick={onSearch} refreshKey={search.data?.searchKnowledge.query} />
      </Box>

      {query ? (
        <SearchResults
          query={query}
          result={search.data?.searchKnowledge}
          loading={search.loading}
          error={Boolean(search.error)}
        />
      ) : failed ? (
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => void Promise.all([categories.refetch(), articles.refetch()])}
            >
              {t("knowledge.retry")}
            </Button>
          }
        >
          {t("knowledge.loadFailed")}
        </Alert>
      ) : loading ? (
        // the loaded page's shape (the categories, then the documents), so nothing jumps when it arrives
        <Box role="status" aria-label={t("app.loading")}>
          <Skeleton variant="text" width={140} sx={{ fontSize: "1.3rem", mb: 2 }} />
          <Box sx={{ mb: 5 }}>
            <CategoryGridSkeleton />
          </Box>
          <Skeleton variant="text" width={220} sx={{ fontSize: "1.3rem", mb: 2 }} />
          <CardGridSkeleton count={3} height={ARTICLE_CARD_SKELETON_HEIGHT} />
        </Box>
      ) : all.length === 0 ? (
        <EmptyState
          testId="knowledge-no-documents"
          icon={<CloudOffRoundedIcon />}
          title={t("knowledge.noDocumentsTitle")}
          text={t("knowledge.noDocumentsText")}
        />
      ) : (
        <>
          <Box component="section" aria-labelledby="knowledge-categories-title" sx={{ mb: 5 }}>
            <Typography id="knowledge-categories-title" variant="h2" sx={{ fontSize: "1.3rem", mb: 2 }}>
              {t("knowledge.categoriesTitle")}
            </Typography>
            <CardGrid lgColumns={CATEGORY_GRID_COLUMNS}>
              {cats.map((c) => (
                <CategoryCard key={c.name} category={c} />
              ))}
            </CardGrid>
          </Box>
          <AllDocuments articles={all} />
        </>
      )}
    </>
  );
}
